import { getHarness, liveBankApi } from './harness.ts';
import { client } from './http.ts';
import { chooseOutcome, waitForStatus } from './payments.ts';
import { createMerchant } from '../../src/merchants/merchants.ts';
import {
  activateLiveMode,
  addDomain,
  approveGateway,
  createMerchantKey,
  requestGateway,
} from '../../src/merchants/onboarding.ts';
import { submitDocuments } from '../../src/merchants/documents.ts';
import { documentStore } from '../../src/adapters/document-store.ts';
import type { Client } from '@temporalio/client';
import type { Config } from '../../src/config.ts';
import type { Db } from '../../src/db/database.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { STATUS_AFTER_OUTCOME, type BankOutcome } from '../../src/domain/payment.ts';

export const LIVE_DOMAIN = 'shop.example';

/** Business documents that pass every rule (a valid national ID and IBAN) and a file that is a PDF by its content. */
export const GOOD_DOCUMENTS = {
  legal_name: 'فروشگاه نمونه',
  id_kind: 'person',
  national_id: '0499370899',
  iban: 'IR820540102680020817909002',
};
export const SMALL_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

async function harnessServices(): Promise<OnboardingServices> {
  const h = await getHarness();
  return { db: h.db, temporal: h.temporal.client, config: h.config };
}

/** The services onboarding goes through: the main suite's harness, or the fault suite's private stack. */
export interface OnboardingServices {
  db: Db;
  temporal: Client;
  config: Config;
}

/**
 * Takes a merchant through the whole onboarding (LIVE_DOMAIN and localhost as its domains, documents,
 * gateway approved, live mode on) and answers a live key: a merchant made by the CLI's service or
 * signed up in the dashboard alike. The key holds the `refunds` scope, as `keys create --mode live
 * --scope refunds` makes it (docs/API.md#key-scopes): the suites refund with it.
 */
export async function goLive(merchantId: string, services?: OnboardingServices): Promise<string> {
  const deps = services ?? (await harnessServices());
  for (const domain of [LIVE_DOMAIN, 'localhost']) await addDomain(deps, merchantId, domain); // localhost for its test payments' local callbacks
  // Proving a domain by its /.well-known/ file is tested on its own (test/live/domain-verification.test.ts); here they count as proven.
  await deps.db
    .updateTable('merchant_domains')
    .set({ verified_at: new Date() })
    .where('merchant_id', '=', merchantId)
    .where('verified_at', 'is', null)
    .execute();
  await submitDocuments({ ...deps, store: documentStore(deps.config) }, merchantId, GOOD_DOCUMENTS, [
    { name: 'registration.pdf', bytes: SMALL_PDF },
  ]);
  await requestGateway(deps, merchantId);
  await approveGateway(deps, merchantId);
  await activateLiveMode(deps, merchantId);
  return (await createMerchantKey(deps.db, merchantId, 'live', deps.config.TEST_KEYS_PER_MERCHANT, ['refunds'])).key;
}

/** A merchant through the whole onboarding (goLive): gateway approved, live mode on, a test and a live key. */
export async function liveMerchant(
  services?: OnboardingServices,
): Promise<{ merchantId: string; testKey: string; liveKey: string }> {
  const deps = services ?? (await harnessServices());
  const m = await createMerchant(deps.db, deps.config, { name: 'Live shop', domain: LIVE_DOMAIN });
  return { merchantId: m.merchant_id, testKey: m.test_key, liveKey: await goLive(m.merchant_id, deps) };
}

/** A live payment created on `baseUrl` (an API server with a live bank, liveBankApi). */
export async function createdLivePayment(
  baseUrl: string,
  liveKey: string,
  amount: number,
  fields: Record<string, unknown> = {},
): Promise<Payment> {
  const created = await client(baseUrl, liveKey).post<{ payment: Payment }>('/payments', {
    amount,
    callback_url: `https://${LIVE_DOMAIN}/checkout/return`,
    merchant_reference: `live-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    ...fields,
  });
  if (created.status !== 201) throw new Error(`live create failed: ${created.status} ${created.text}`);
  return created.body.payment;
}

/**
 * A live payment the customer answered at the live bank (the simulator standing in for a PSP,
 * harness.ts LIVE_BANK) by the customer's real path, once the gateway has recorded the answer.
 */
export async function answeredLivePayment(
  baseUrl: string,
  liveKey: string,
  amount: number,
  outcome: Exclude<BankOutcome, 'delay'>,
  /** Where the customer pays: an API server with a live bank (by default the harness's liveBankApi). */
  payBase?: string,
  /** More fields of the create request (e.g. `splits`). */
  fields: Record<string, unknown> = {},
): Promise<Payment> {
  const created = await createdLivePayment(baseUrl, liveKey, amount, fields);
  const answered = await chooseOutcome(payBase ?? (await liveBankApi()), created.id, outcome);
  if (answered.status !== 303) throw new Error(`the live bank path failed: ${answered.status} ${answered.text}`);
  return waitForStatus(baseUrl, liveKey, created.id, STATUS_AFTER_OUTCOME[outcome]);
}

/** A verified live payment: paid at the live bank, then verified by the merchant. */
export async function verifiedLivePayment(
  baseUrl: string,
  liveKey: string,
  amount = 2_000_000,
  payBase?: string,
  fields: Record<string, unknown> = {},
): Promise<Payment> {
  const paid = await answeredLivePayment(baseUrl, liveKey, amount, 'success', payBase, fields);
  const verified = await client(baseUrl, liveKey).post<{ payment: Payment }>(`/payments/${paid.id}/verify`, { amount });
  if (verified.status !== 200) throw new Error(`live verify failed: ${verified.status} ${verified.text}`);
  return verified.body.payment;
}
