/**
 * A mandate's limits across requests (docs/SUBSCRIPTIONS.md#limits), on real MySQL: concurrent debits
 * never cross the daily or monthly count together, one idempotency key is one debit however many ask
 * at once, a debit above the per-debit amount or of a mandate not active is refused writing nothing,
 * and a debit the provider refused gives its counts back once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { admitDebit, releaseDebit } from '../../src/direct-debit/debits.ts';
import { insertMandate } from '../../src/db/mandates.ts';
import type { Tenant } from '../../src/domain/merchant.ts';
import { tehranPeriods } from '../../src/domain/mandate.ts';
import { DomainError } from '../../src/errors.ts';
import { getHarness, newMerchant } from '../support/harness.ts';

const DAY = 86_400_000;

async function activeMandate(
  tenant: Tenant,
  limits: { max_amount: number; max_daily_count: number; max_monthly_count: number },
  status = 'active',
): Promise<string> {
  const { db } = await getHarness();
  const id = randomUUID();
  await insertMandate(db, {
    id,
    merchant_id: tenant.merchant.id,
    mode: tenant.mode,
    provider: 'zarinpal',
    status,
    mobile: '09123456789',
    national_code: null,
    ...limits,
    expires_at: new Date(Date.now() + 60 * DAY),
    return_url: 'http://localhost/return',
    merchant_reference: 'plan-1',
    created_at: new Date(),
  });
  return id;
}

async function rows(mandateId: string) {
  const { db } = await getHarness();
  const debits = await db.selectFrom('mandate_debits').selectAll().where('mandate_id', '=', mandateId).execute();
  const usage = await db.selectFrom('mandate_usage').selectAll().where('mandate_id', '=', mandateId).execute();
  return { debits, usage: Object.fromEntries(usage.map((u) => [u.period, u.used])) };
}

const refusalCode = (result: PromiseSettledResult<unknown>) =>
  result.status === 'rejected' && result.reason instanceof DomainError ? result.reason.code : undefined;

describe('direct debit limits (one mandate, many requests)', () => {
  let tenant: Tenant;
  before(async () => {
    const { merchantId } = await newMerchant();
    tenant = { merchant: { id: merchantId }, mode: 'test' };
  });

  it('twelve concurrent debits of a mandate of two a day: exactly two are admitted, the rest refused by the daily count', async () => {
    const { db } = await getHarness();
    const mandateId = await activeMandate(tenant, { max_amount: 1_000_000, max_daily_count: 2, max_monthly_count: 10 });
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        admitDebit(db, tenant, { mandateId, amount: 500_000, idempotencyKey: `race-${i}`, merchantReference: `r${i}` }),
      ),
    );
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 2);
    assert.deepEqual(
      results.filter((r) => r.status === 'rejected').map(refusalCode),
      Array.from({ length: 10 }, () => 'mandate_limit_exceeded'),
    );
    const { debits, usage } = await rows(mandateId);
    const { day, month } = tehranPeriods(new Date());
    assert.equal(debits.length, 2, 'a refused debit writes nothing');
    assert.deepEqual(usage, { [`d:${day}`]: 2, [`m:${month}`]: 2 });
  });

  it('the monthly count holds across days: a mandate of three a month admits three, whatever the days', async () => {
    const { db } = await getHarness();
    const mandateId = await activeMandate(tenant, { max_amount: 1_000_000, max_daily_count: 3, max_monthly_count: 3 });
    // Three days of one Tehran month: the 10th, 11th and 12th (a month's first days would cross none).
    const now = new Date();
    const base = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 10, 12);
    const at = (day: number) => new Date(base + day * DAY);
    await Promise.all(
      [0, 0, 1].map((d, i) =>
        admitDebit(db, tenant, { mandateId, amount: 1_000, idempotencyKey: `m-${i}`, merchantReference: 'm' }, at(d)),
      ),
    );
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        admitDebit(db, tenant, { mandateId, amount: 1_000, idempotencyKey: `m2-${i}`, merchantReference: 'm' }, at(2)),
      ),
    );
    assert.ok(results.every((r) => refusalCode(r) === 'mandate_limit_exceeded'));
    assert.equal((await rows(mandateId)).debits.length, 3);
  });

  it('ten concurrent requests with one idempotency key make one debit, and every one answers it', async () => {
    const { db } = await getHarness();
    const mandateId = await activeMandate(tenant, { max_amount: 1_000_000, max_daily_count: 5, max_monthly_count: 5 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        admitDebit(db, tenant, {
          mandateId,
          amount: 42_000,
          idempotencyKey: 'same-key',
          merchantReference: 'invoice-9',
        }),
      ),
    );
    assert.equal(new Set(results.map((r) => r.debit.id)).size, 1);
    assert.equal(results.filter((r) => !r.replayed).length, 1);
    const { debits, usage } = await rows(mandateId);
    assert.equal(debits.length, 1);
    assert.deepEqual(Object.values(usage), [1, 1]);
    await assert.rejects(
      admitDebit(db, tenant, { mandateId, amount: 43_000, idempotencyKey: 'same-key', merchantReference: 'invoice-9' }),
      (e: unknown) => e instanceof DomainError && e.code === 'idempotency_key_reused',
    );
  });

  it('refuses before the provider, writing nothing: above the per-debit amount, a mandate not active, another merchant', async () => {
    const { db } = await getHarness();
    const mandateId = await activeMandate(tenant, { max_amount: 100_000, max_daily_count: 5, max_monthly_count: 5 });
    await assert.rejects(
      admitDebit(db, tenant, { mandateId, amount: 100_001, idempotencyKey: 'big', merchantReference: 'x' }),
      (e: unknown) => e instanceof DomainError && e.code === 'mandate_limit_exceeded' && e.status === 422,
    );
    const pending = await activeMandate(
      tenant,
      { max_amount: 100_000, max_daily_count: 5, max_monthly_count: 5 },
      'pending',
    );
    await assert.rejects(
      admitDebit(db, tenant, { mandateId: pending, amount: 1_000, idempotencyKey: 'p', merchantReference: 'x' }),
      (e: unknown) => e instanceof DomainError && e.code === 'mandate_not_active' && e.status === 409,
    );
    const { merchantId } = await newMerchant();
    await assert.rejects(
      admitDebit(
        db,
        { merchant: { id: merchantId }, mode: 'test' },
        { mandateId, amount: 1_000, idempotencyKey: 'o', merchantReference: 'x' },
      ),
      (e: unknown) => e instanceof DomainError && e.code === 'mandate_not_found',
    );
    await assert.rejects(
      admitDebit(
        db,
        { ...tenant, mode: 'live' },
        { mandateId, amount: 1_000, idempotencyKey: 'l', merchantReference: 'x' },
      ),
      (e: unknown) => e instanceof DomainError && e.code === 'mandate_not_found',
    );
    for (const id of [mandateId, pending]) {
      const { debits, usage } = await rows(id);
      assert.equal(debits.length, 0);
      assert.deepEqual(usage, {});
    }
  });

  it('a debit the provider refused gives its counts back, once', async () => {
    const { db } = await getHarness();
    const mandateId = await activeMandate(tenant, { max_amount: 100_000, max_daily_count: 1, max_monthly_count: 1 });
    const { debit } = await admitDebit(db, tenant, {
      mandateId,
      amount: 1_000,
      idempotencyKey: 'a',
      merchantReference: 'x',
    });
    await assert.rejects(
      admitDebit(db, tenant, { mandateId, amount: 1_000, idempotencyKey: 'b', merchantReference: 'x' }),
    );
    assert.equal(await releaseDebit(db, debit.id), true);
    assert.equal(await releaseDebit(db, debit.id), false);
    assert.deepEqual(Object.values((await rows(mandateId)).usage), [0, 0]);
    await admitDebit(db, tenant, { mandateId, amount: 1_000, idempotencyKey: 'b', merchantReference: 'x' });
  });
});
