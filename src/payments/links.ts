/**
 * Payment links (docs/PAYMENTS.md#payment-links): the merchant creates, lists
 * and deactivates them; a customer on the link's page starts a payment, which
 * the payment's workflow verifies itself (`auto_verify`) and whose customer
 * returns to the gateway's own receipt page. The rules are the domain's
 * (src/domain/payment-link.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { isDuplicateKey } from '../db/errors.ts';
import { insertPaymentRow } from '../db/payment-creation.ts';
import {
  countedLinkById,
  countedLinkBySlug,
  deactivateTenantLink,
  deleteUnstartedLinkPayment,
  insertPaymentLink,
  linkMerchantTerms,
  linkPaymentCounts,
  linkPaymentRow,
  lockLinkForStart,
  paymentLinksPage,
  setLinkPaymentsCount,
  tenantCountedLink,
  type CountedLinkRow,
} from '../db/payment-links.ts';
import { paymentFromRow, rowFromNewPayment } from '../db/payments.ts';
import { merchantLiveMode } from '../db/merchants.ts';
import type { PaymentLinkRow } from '../db/schema.ts';
import type { Tenant } from '../domain/merchant.ts';
import {
  chosenAmount,
  collectedMetadata,
  collectedProblems,
  linkPaymentReference,
  linkUnavailability,
  paymentLinkProblems,
  slugFromBytes,
  SLUG_LENGTH,
  type Collect,
  type CollectedAnswers,
  type CreatePaymentLinkRequest,
  type LinkUnavailable,
  type ListPaymentLinksQuery,
  type PaymentLink,
  type Problem,
} from '../domain/payment-link.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { DomainError } from '../errors.ts';
import { newPayment, paymentWorkflowInput, startPaymentWorkflow } from './create.ts';
import { idempotent, type IdempotentResult } from './idempotency.ts';
import type { PaymentServiceDeps } from './payment-calls.ts';

/** The link's page, where customers pay. */
export const paymentLinkUrl = (config: Pick<Config, 'PUBLIC_BASE_URL'>, slug: string): string =>
  `${config.PUBLIC_BASE_URL}/l/${slug}`;

/** Where a link payment's customer returns: the gateway's receipt, since the merchant has no site (its callback_url). */
export const linkReceiptUrl = (config: Pick<Config, 'PUBLIC_BASE_URL'>, slug: string, paymentId: string): string =>
  `${paymentLinkUrl(config, slug)}/receipt/${paymentId}`;

export function paymentLinkFromRow(row: CountedLinkRow, config: Pick<Config, 'PUBLIC_BASE_URL'>): PaymentLink {
  const url = paymentLinkUrl(config, row.slug);
  const amountOrNull = (value: number | string | null) => (value === null ? null : Number(value));
  return {
    id: row.id,
    slug: row.slug,
    url,
    qr_url: `${url}/qr.svg`,
    mode: row.mode,
    title: row.title,
    description: row.description,
    amount: amountOrNull(row.amount),
    min_amount: amountOrNull(row.min_amount),
    max_amount: amountOrNull(row.max_amount),
    collect: JSON.parse(row.collect) as Collect,
    expires_at: row.expires_at === null ? null : row.expires_at.toISOString(),
    max_payments: row.max_payments,
    payments_count: Number(row.places_held),
    active: Boolean(row.active),
    created_at: row.created_at.toISOString(),
  };
}

const invalid = (problems: Problem[]) =>
  new DomainError(
    'validation_failed',
    `The request is invalid: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`,
    problems,
  );

/** Creates a link (201), once per Idempotency-Key as a payment's create is; a bad request writes nothing. */
export async function createPaymentLink(
  { db, config }: Pick<PaymentServiceDeps, 'db' | 'config'>,
  tenant: Tenant,
  request: CreatePaymentLinkRequest,
  idempotencyKey: string | undefined,
): Promise<IdempotentResult> {
  const problems = paymentLinkProblems(request, Date.now());
  if (problems.length > 0) throw invalid(problems);
  const scope = { owner: tenant, operation: 'create_payment_link' };
  return idempotent(db, scope, idempotencyKey, request, config.IDEMPOTENCY_TTL_SECONDS, async (linkId, fresh) => {
    const existing = fresh ? undefined : await countedLinkById(db, linkId);
    if (existing !== undefined) return { status: 201, body: { payment_link: paymentLinkFromRow(existing, config) } };
    const row: PaymentLinkRow = {
      id: linkId,
      merchant_id: tenant.merchant.id,
      mode: tenant.mode,
      slug: '',
      title: request.title,
      description: request.description ?? '',
      amount: request.amount ?? null,
      min_amount: request.amount === undefined ? (request.min_amount ?? null) : null,
      max_amount: request.amount === undefined ? (request.max_amount ?? null) : null,
      collect: JSON.stringify(request.collect ?? {}),
      expires_at: request.expires_at === undefined ? null : new Date(request.expires_at),
      max_payments: request.max_payments ?? null,
      payments_count: 0,
      active: 1,
      created_at: new Date(),
    };
    for (let attempt = 0; ; attempt++) {
      row.slug = slugFromBytes(randomBytes(SLUG_LENGTH));
      try {
        await insertPaymentLink(db, row);
        break;
      } catch (error) {
        // A slug collision: draw another (31^10 slugs make it rare).
        if (isDuplicateKey(error) && attempt < 5) continue;
        throw error;
      }
    }
    return { status: 201, body: { payment_link: paymentLinkFromRow({ ...row, places_held: 0 }, config) } };
  });
}

export async function listPaymentLinks(
  db: Db,
  config: Pick<Config, 'PUBLIC_BASE_URL'>,
  tenant: Tenant,
  query: ListPaymentLinksQuery,
) {
  return paymentLinksPage(db, tenant, query, (row) => paymentLinkFromRow(row, config));
}

export async function getPaymentLink(
  db: Db,
  config: Pick<Config, 'PUBLIC_BASE_URL'>,
  tenant: Tenant,
  id: string,
): Promise<PaymentLink> {
  const row = await tenantCountedLink(db, tenant, id);
  if (row === undefined) throw new DomainError('payment_link_not_found', `No payment link ${id}.`);
  return paymentLinkFromRow(row, config);
}

/** Deactivates a link for good: its page then says so and starts nothing. Deactivating it again answers the same. */
export async function deactivatePaymentLink(
  db: Db,
  config: Pick<Config, 'PUBLIC_BASE_URL'>,
  tenant: Tenant,
  id: string,
): Promise<PaymentLink> {
  await deactivateTenantLink(db, tenant, id);
  return getPaymentLink(db, config, tenant, id);
}

/** A link by its slug, whoever's it is (the customer's page), with its merchant's name; undefined when there is none. */
export async function paymentLinkBySlug(
  db: Db,
  config: Pick<Config, 'PUBLIC_BASE_URL'>,
  slug: string,
): Promise<{ link: PaymentLink; merchantId: string; merchantName: string } | undefined> {
  const row = await countedLinkBySlug(db, slug);
  return row === undefined
    ? undefined
    : { link: paymentLinkFromRow(row, config), merchantId: row.merchant_id, merchantName: row.merchant_name };
}

const UNAVAILABLE_MESSAGES: Record<LinkUnavailable, string> = {
  payment_link_inactive: 'The payment link was deactivated.',
  payment_link_expired: 'The payment link has expired.',
  payment_link_used_up: 'The payment link has taken all the payments it allows.',
};
export const linkUnavailableError = (why: LinkUnavailable) => new DomainError(why, UNAVAILABLE_MESSAGES[why]);

/** What the customer filled in on the link's page. */
export interface LinkPaymentForm {
  /** Rials, for a link with a range; ignored for a fixed amount. */
  amount: number | undefined;
  answers: CollectedAnswers;
  /** The page's language, kept on the receipt the customer returns to. */
  lang: 'fa' | 'en';
}

/**
 * Starts a payment on the link (docs/PAYMENTS.md#payment-links): the link must take payments, a live
 * link's merchant must still be approved for live mode, the amount and answers must pass its rules,
 * the link must have a place under max_payments (places held counted from its payments, so one whose
 * payment failed, was canceled, expired or was reversed is free again) and fewer than
 * LINK_OPEN_PAYMENTS_MAX open payments. Both are counted with the link's row locked, in the
 * transaction that inserts the payment, so concurrent customers never exceed either. The workflow is
 * started with `auto_verify`. Answers the payment, status `created`.
 */
export async function startLinkPayment(
  { db, temporal, config }: PaymentServiceDeps,
  slug: string,
  form: LinkPaymentForm,
): Promise<Payment> {
  const found = await paymentLinkBySlug(db, config, slug);
  if (found === undefined) throw new DomainError('payment_link_not_found', `No payment link ${slug}.`);
  const { link, merchantId } = found;
  const now = Date.now();
  const unavailable = linkUnavailability(link, now);
  if (unavailable !== undefined) throw linkUnavailableError(unavailable);
  const merchant = await linkMerchantTerms(db, merchantId);
  // A live link made before its merchant lost (or without ever having) live mode takes no live money:
  // the gateway itself verifies link payments, so nothing else would stop it.
  if (link.mode === 'live' && !merchant.live_mode)
    throw new DomainError('live_mode_not_enabled', 'This merchant is not approved for live payments.');
  const amount = chosenAmount(link, form.amount);
  const problems = [...(typeof amount === 'number' ? [] : [amount]), ...collectedProblems(link.collect, form.answers)];
  if (problems.length > 0 || typeof amount !== 'number') throw invalid(problems);

  const paymentId = randomUUID();
  const metadata = collectedMetadata(link.collect, form.answers);
  const payment = newPayment(
    paymentId,
    link.mode,
    {
      amount,
      callback_url: `${linkReceiptUrl(config, link.slug, paymentId)}${form.lang === 'en' ? '?lang=en' : ''}`,
      merchant_reference: linkPaymentReference(link.slug),
      description: link.title,
      metadata,
    },
    config,
    now,
    'api',
    undefined,
    link.id,
  );
  await db.transaction().execute(async (trx) => {
    // The link's row locked: one start of this link at a time counts its places and open payments.
    const locked = await lockLinkForStart(trx, link.id);
    const counts = await linkPaymentCounts(trx, link.id);
    const held = Number(counts.held ?? 0);
    const fresh = {
      active: Boolean(locked.active),
      expires_at: locked.expires_at === null ? null : locked.expires_at.toISOString(),
      max_payments: locked.max_payments,
      payments_count: held,
    };
    // The merchant deactivated it, it expired, or other customers took the last place since it was read.
    const nowUnavailable = linkUnavailability(fresh, now);
    if (nowUnavailable !== undefined) throw linkUnavailableError(nowUnavailable);
    if (Number(counts.open ?? 0) >= config.LINK_OPEN_PAYMENTS_MAX) {
      throw new DomainError(
        'rate_limited',
        `This payment link has ${config.LINK_OPEN_PAYMENTS_MAX} payments open; retry once one ends.`,
        undefined,
        { 'Retry-After': '60' },
      );
    }
    // The column keeps the places held as of this start (its check constraint still bounds it by max_payments).
    await setLinkPaymentsCount(trx, link.id, held + 1);
    await insertPaymentRow(trx, rowFromNewPayment(payment, merchantId, metadata.link_mobile ?? null));
  });
  const feePlan = { bps: merchant.fee_bps, min: Number(merchant.fee_min), max: Number(merchant.fee_max) };
  try {
    // auto_verify only for a merchant approved for live mode when its live payment starts (checked
    // above); test payments are verified as ever. The workflow asks again before its own verify.
    const autoVerify = link.mode === 'test' || Boolean(merchant.live_mode);
    await startPaymentWorkflow(
      temporal,
      { ...paymentWorkflowInput(payment, { id: merchantId, fee_plan: feePlan }, config), auto_verify: autoVerify },
      config.TEMPORAL_TASK_QUEUE,
    );
  } catch (error) {
    // Nobody can finish a payment without its workflow: take the row back, and with it its place.
    await deleteUnstartedLinkPayment(db, paymentId).catch(() => undefined);
    throw error;
  }
  return payment;
}

/**
 * Whether a live link payment may still go to the bank: its merchant is approved for live mode now.
 * The payment page asks before it requests a PSP token, so a merchant whose live mode was withdrawn
 * after the payment started takes no money through it (docs/PAYMENTS.md#payment-links).
 */
export async function linkPaymentMayProceed(
  db: Db,
  payment: Pick<Payment, 'mode' | 'payment_link'>,
  merchantId: string,
): Promise<boolean> {
  if (payment.mode !== 'live' || payment.payment_link === null) return true;
  const merchant = await merchantLiveMode(db, merchantId);
  return Boolean(merchant?.live_mode);
}

/** The link payment a receipt shows: only one started on this link; undefined for any other. */
export async function linkPaymentOf(db: Db, linkId: string, paymentId: string): Promise<Payment | undefined> {
  const row = await linkPaymentRow(db, linkId, paymentId);
  return row === undefined ? undefined : paymentFromRow(row);
}

/** The link's URL as a QR code, an SVG drawn here (no third party sees the link). */
export function paymentLinkQrSvg(link: Pick<PaymentLink, 'url'>): Promise<string> {
  return QRCode.toString(link.url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
