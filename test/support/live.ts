import { getHarness, liveBankApi } from './harness.ts';
import { client } from './http.ts';
import { chooseOutcome, waitForStatus } from './payments.ts';
import { createMerchant } from '../../src/merchants/merchants.ts';
import { activateLiveMode, addDomain, approveGateway, createMerchantKey, requestGateway } from '../../src/merchants/onboarding.ts';
import { submitDocuments } from '../../src/merchants/documents.ts';
import { documentStore } from '../../src/adapters/document-store.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';

export const LIVE_DOMAIN = 'shop.example';

/** Business documents that pass every rule (a valid national ID and IBAN) and a file that is a PDF by its content. */
export const GOOD_DOCUMENTS = { legal_name: 'فروشگاه نمونه', id_kind: 'person', national_id: '0499370899', iban: 'IR820540102680020817909002' };
export const SMALL_PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/**
 * Takes a merchant through the whole onboarding (LIVE_DOMAIN and localhost as its domains, documents,
 * gateway approved, live mode on) and answers a live key: a merchant made by the CLI's service or
 * signed up in the dashboard alike.
 */
export async function goLive(merchantId: string): Promise<string> {
  const h = await getHarness();
  const onboarding = { db: h.db, temporal: h.temporal.client, config: h.config };
  for (const domain of [LIVE_DOMAIN, 'localhost']) await addDomain(onboarding, merchantId, domain); // localhost for its test payments' local callbacks
  await submitDocuments({ ...onboarding, store: documentStore(h.config) }, merchantId, GOOD_DOCUMENTS, [{ name: 'registration.pdf', bytes: SMALL_PDF }]);
  await requestGateway(onboarding, merchantId);
  await approveGateway(onboarding, merchantId);
  await activateLiveMode(onboarding, merchantId);
  return (await createMerchantKey(h.db, merchantId, 'live')).key;
}

/** A merchant through the whole onboarding (goLive): gateway approved, live mode on, a test and a live key. */
export async function liveMerchant(): Promise<{ merchantId: string; testKey: string; liveKey: string }> {
  const h = await getHarness();
  const m = await createMerchant(h.db, h.config, { name: 'Live shop', domain: LIVE_DOMAIN });
  return { merchantId: m.merchant_id, testKey: m.test_key, liveKey: await goLive(m.merchant_id) };
}

/**
 * A verified live payment: paid through a live bank (the simulator standing in for a PSP,
 * harness.ts LIVE_BANK), on an API server configured for it, by the customer's real path.
 */
export async function verifiedLivePayment(baseUrl: string, liveKey: string, amount = 2_000_000): Promise<Payment> {
  const api = client(baseUrl, liveKey);
  const created = await api.post<{ payment: Payment }>('/payments', {
    amount,
    callback_url: `https://${LIVE_DOMAIN}/checkout/return`,
    merchant_reference: `live-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
  });
  if (created.status !== 201) throw new Error(`live create failed: ${created.status} ${created.text}`);
  const paid = await chooseOutcome(await liveBankApi(), created.body.payment.id, 'success');
  if (paid.status !== 303) throw new Error(`the live bank path failed: ${paid.status} ${paid.text}`);
  await waitForStatus(baseUrl, liveKey, created.body.payment.id, 'paid');
  const verified = await api.post<{ payment: Payment }>(`/payments/${created.body.payment.id}/verify`, { amount });
  if (verified.status !== 200) throw new Error(`live verify failed: ${verified.status} ${verified.text}`);
  return verified.body.payment;
}
