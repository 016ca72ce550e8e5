/**
 * What the direct debit tests share: an active mandate made through the API and signed at the Payman
 * simulator by plain HTTP (its signing form posted, its return followed to the gateway), the simulator's
 * call counts, fault switches and ledger of checkouts.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Mandate } from '../../src/domain/mandate-schemas.ts';
import type { Harness } from './harness.ts';
import { waitFor } from './http.ts';
import type { Api } from './webhooks.ts';

const DAY = 86_400_000;

export function paymanUrl(): string {
  const url = process.env.SANDBOX_PAYMAN_URL;
  if (url === undefined || url === '') throw new Error('no Payman simulator (SANDBOX_PAYMAN_URL)');
  return url.replace(/\/$/, '');
}

const admin = () => ({ authorization: `Bearer ${process.env.BANK_SIM_ADMIN_TOKEN ?? ''}` });

export type PaymanCalls = Record<'request' | 'verify' | 'payment' | 'checkout' | 'cancel', number>;

export async function paymanCalls(): Promise<PaymanCalls> {
  const res = await fetch(`${paymanUrl()}/admin/calls`, { headers: admin() });
  assert.equal(res.status, 200);
  return (await res.json()) as PaymanCalls;
}

export async function paymanFault(
  operation: keyof PaymanCalls,
  fault: 'down' | 'refuse' | 'timeout' | 'clear',
): Promise<void> {
  const res = await fetch(`${paymanUrl()}/admin/faults`, {
    method: 'POST',
    headers: { ...admin(), 'content-type': 'application/json' },
    body: JSON.stringify({ operation, fault }),
  });
  assert.equal(res.status, 200);
}

/** A checkout the simulator made: money taken under the contract (the mandate's `provider_authority`). */
export interface PaymanCheckout {
  authority: string;
  contract: string | null;
  amount: number;
  refrence_id: number;
  at: string;
}

/** The simulator's own ledger: every checkout it made, each authority's once. */
export async function paymanCheckouts(): Promise<PaymanCheckout[]> {
  const res = await fetch(`${paymanUrl()}/admin/checkouts`, { headers: admin() });
  assert.equal(res.status, 200);
  return ((await res.json()) as { checkouts: PaymanCheckout[] }).checkouts;
}

/**
 * A mandate signed (or left pending) at the simulator, as the customer would sign it at the bank page.
 * With `viaBankPage`, the customer picks the bank on the gateway's bank page (`/mandates/{id}/bank/SABCIR`,
 * which records it and redirects to the simulator's signing page) instead of going to the simulator directly.
 */
export async function mandateOf(
  h: Pick<Harness, 'db' | 'baseUrl'>,
  api: Api,
  limits: { max_amount: number; max_daily_count: number; max_monthly_count: number },
  sign = true,
  viaBankPage = false,
): Promise<Mandate> {
  const res = await api.post<{ mandate: Mandate }>(
    '/mandates',
    {
      mobile: '09121234567',
      ...limits,
      expires_at: new Date(Date.now() + 60 * DAY).toISOString(),
      return_url: `http://localhost:${new URL(h.baseUrl).port}/mandate-done`,
    },
    { idempotencyKey: randomUUID() },
  );
  assert.equal(res.status, 201, res.text);
  const id = res.body.mandate.id;
  const authority = await waitFor('the provider authority', async () => {
    const row = await h.db.selectFrom('mandates').select('provider_authority').where('id', '=', id).executeTakeFirst();
    return row?.provider_authority ?? undefined;
  });
  if (!sign) return res.body.mandate;
  let signingPage = `${paymanUrl()}/pg/StartPayman/${authority}/SABCIR`;
  if (viaBankPage) {
    const chosen = await fetch(`${h.baseUrl}/mandates/${id}/bank/SABCIR`, { redirect: 'manual' });
    assert.equal(chosen.status, 303);
    signingPage = chosen.headers.get('location')!;
    assert.match(signingPage, /\/pg\/StartPayman\/[^/]+\/SABCIR$/);
  }
  const signed = await fetch(signingPage, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'decision=sign',
    redirect: 'manual',
  });
  assert.equal(signed.status, 303);
  // The customer's return to the gateway, which hands it to the mandate's workflow.
  const back = await fetch(signed.headers.get('location')!, { redirect: 'manual' });
  assert.equal(back.status, 200);
  const active = await api.get<{ mandate: Mandate }>(`/mandates/${id}`);
  assert.equal(active.body.mandate.status, 'active', active.text);
  return active.body.mandate;
}
