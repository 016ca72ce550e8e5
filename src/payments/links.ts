/**
 * Payment links (docs/PAYMENTS.md#payment-links): the merchant creates, lists
 * and deactivates them; a customer on the link's page starts a payment, which
 * the payment's workflow verifies itself (`auto_verify`) and whose customer
 * returns to the gateway's own receipt page. The rules are the domain's
 * (src/domain/payment-link.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import QRCode from 'qrcode';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { isDuplicateKey } from '../db/errors.ts';
import { keyedPage } from '../db/pagination.ts';
import { rowFromNewPayment } from '../db/payments.ts';
import type { PaymentLinkRow } from '../db/schema.ts';
import { scopedTo } from '../db/tenant.ts';
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
export const paymentLinkUrl = (config: Pick<Config, 'PUBLIC_BASE_URL'>, slug: string): string => `${config.PUBLIC_BASE_URL}/l/${slug}`;

/** Where a link payment's customer returns: the gateway's receipt, since the merchant has no site (its callback_url). */
export const linkReceiptUrl = (config: Pick<Config, 'PUBLIC_BASE_URL'>, slug: string, paymentId: string): string =>
  `${paymentLinkUrl(config, slug)}/receipt/${paymentId}`;

export function paymentLinkFromRow(row: PaymentLinkRow, config: Pick<Config, 'PUBLIC_BASE_URL'>): PaymentLink {
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
    payments_count: Number(row.payments_count),
    active: Boolean(row.active),
    created_at: row.created_at.toISOString(),
  };
}

const invalid = (problems: Problem[]) => new DomainError('validation_failed', `The request is invalid: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`, problems);

/** Creates a link (201), once per Idempotency-Key as a payment's create is; a bad request writes nothing. */
export async function createPaymentLink({ db, config }: Pick<PaymentServiceDeps, 'db' | 'config'>, tenant: Tenant, request: CreatePaymentLinkRequest, idempotencyKey: string | undefined): Promise<IdempotentResult> {
  const problems = paymentLinkProblems(request, Date.now());
  if (problems.length > 0) throw invalid(problems);
  const scope = { owner: tenant, operation: 'create_payment_link' };
  return idempotent(db, scope, idempotencyKey, request, config.IDEMPOTENCY_TTL_SECONDS, async (linkId, fresh) => {
    const existing = fresh ? undefined : await db.selectFrom('payment_links').selectAll().where('id', '=', linkId).executeTakeFirst();
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
        await db.insertInto('payment_links').values(row).execute();
        break;
      } catch (error) {
        // A slug collision: draw another (31^10 slugs make it rare).
        if (isDuplicateKey(error) && attempt < 5) continue;
        throw error;
      }
    }
    return { status: 201, body: { payment_link: paymentLinkFromRow(row, config) } };
  });
}

export async function listPaymentLinks(db: Db, config: Pick<Config, 'PUBLIC_BASE_URL'>, tenant: Tenant, query: ListPaymentLinksQuery) {
  return keyedPage(db.selectFrom('payment_links').selectAll().where(scopedTo(tenant)), query, (row) => paymentLinkFromRow(row, config));
}

export async function getPaymentLink(db: Db, config: Pick<Config, 'PUBLIC_BASE_URL'>, tenant: Tenant, id: string): Promise<PaymentLink> {
  const row = await db.selectFrom('payment_links').selectAll().where('id', '=', id).where(scopedTo(tenant)).executeTakeFirst();
  if (row === undefined) throw new DomainError('payment_link_not_found', `No payment link ${id}.`);
  return paymentLinkFromRow(row, config);
}

/** Deactivates a link for good: its page then says so and starts nothing. Deactivating it again answers the same. */
export async function deactivatePaymentLink(db: Db, config: Pick<Config, 'PUBLIC_BASE_URL'>, tenant: Tenant, id: string): Promise<PaymentLink> {
  await db.updateTable('payment_links').set({ active: 0 }).where('id', '=', id).where(scopedTo(tenant)).execute();
  return getPaymentLink(db, config, tenant, id);
}

/** A link by its slug, whoever's it is (the customer's page), with its merchant's name; undefined when there is none. */
export async function paymentLinkBySlug(db: Db, config: Pick<Config, 'PUBLIC_BASE_URL'>, slug: string): Promise<{ link: PaymentLink; merchantId: string; merchantName: string } | undefined> {
  const row = await db
    .selectFrom('payment_links')
    .innerJoin('merchants', 'merchants.id', 'payment_links.merchant_id')
    .selectAll('payment_links')
    .select('merchants.name as merchant_name')
    .where('payment_links.slug', '=', slug)
    .executeTakeFirst();
  return row === undefined ? undefined : { link: paymentLinkFromRow(row, config), merchantId: row.merchant_id, merchantName: row.merchant_name };
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
 * Starts a payment on the link (docs/PAYMENTS.md#payment-links): the link must take payments, the
 * amount and answers must pass its rules, and a place under max_payments is reserved by one
 * conditional UPDATE in the transaction that inserts the payment, so concurrent customers never
 * exceed it. The workflow is started with `auto_verify`. Answers the payment, status `created`.
 */
export async function startLinkPayment({ db, temporal, config }: PaymentServiceDeps, slug: string, form: LinkPaymentForm): Promise<Payment> {
  const found = await paymentLinkBySlug(db, config, slug);
  if (found === undefined) throw new DomainError('payment_link_not_found', `No payment link ${slug}.`);
  const { link, merchantId } = found;
  const now = Date.now();
  const unavailable = linkUnavailability(link, now);
  if (unavailable !== undefined) throw linkUnavailableError(unavailable);
  const amount = chosenAmount(link, form.amount);
  const problems = [...(typeof amount === 'number' ? [] : [amount]), ...collectedProblems(link.collect, form.answers)];
  if (problems.length > 0 || typeof amount !== 'number') throw invalid(problems);

  const merchant = await db.selectFrom('merchants').select(['fee_bps', 'fee_min', 'fee_max']).where('id', '=', merchantId).executeTakeFirstOrThrow();
  const paymentId = randomUUID();
  const metadata = collectedMetadata(link.collect, form.answers);
  const payment = newPayment(
    paymentId,
    link.mode,
    { amount, callback_url: `${linkReceiptUrl(config, link.slug, paymentId)}${form.lang === 'en' ? '?lang=en' : ''}`, merchant_reference: linkPaymentReference(link.slug), description: link.title, metadata },
    config,
    now,
    'api',
    undefined,
    link.id,
  );
  await db.transaction().execute(async (trx) => {
    const reserved = await trx
      .updateTable('payment_links')
      .set({ payments_count: sql`payments_count + 1` })
      .where('id', '=', link.id)
      .where('active', '=', 1)
      .where((eb) => eb.or([eb('max_payments', 'is', null), eb('payments_count', '<', eb.ref('max_payments'))]))
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date(now))]))
      .executeTakeFirst();
    if (reserved.numUpdatedRows === 0n) {
      // Another customer took the last place, or the merchant deactivated it, since it was read.
      const fresh = await paymentLinkBySlug(trx, config, slug);
      throw linkUnavailableError((fresh === undefined ? undefined : linkUnavailability(fresh.link, now)) ?? 'payment_link_inactive');
    }
    await trx.insertInto('payments').values(rowFromNewPayment(payment, merchantId, metadata.link_mobile ?? null)).execute();
  });
  const feePlan = { bps: merchant.fee_bps, min: Number(merchant.fee_min), max: Number(merchant.fee_max) };
  try {
    await startPaymentWorkflow(temporal, { ...paymentWorkflowInput(payment, { id: merchantId, fee_plan: feePlan }, config), auto_verify: true }, config.TEMPORAL_TASK_QUEUE);
  } catch (error) {
    // Nobody can finish a payment without its workflow: take the row and its place back.
    await db
      .transaction()
      .execute(async (trx) => {
        const removed = await trx.deleteFrom('payments').where('id', '=', paymentId).where('version', '=', 1).executeTakeFirst();
        if (removed.numDeletedRows > 0n) await trx.updateTable('payment_links').set({ payments_count: sql`payments_count - 1` }).where('id', '=', link.id).execute();
      })
      .catch(() => undefined);
    throw error;
  }
  return payment;
}

/** The link payment a receipt shows: only one started on this link. */
export async function linkPaymentOf(db: Db, linkId: string, paymentId: string) {
  return db.selectFrom('payments').selectAll().where('id', '=', paymentId).where('payment_link_id', '=', linkId).executeTakeFirst();
}

/** The link's URL as a QR code, an SVG drawn here (no third party sees the link). */
export function paymentLinkQrSvg(link: Pick<PaymentLink, 'url'>): Promise<string> {
  return QRCode.toString(link.url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
