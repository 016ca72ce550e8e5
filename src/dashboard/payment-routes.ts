/**
 * The payments: one mode's list (20 a page, filtered by status, the API's
 * cursor), and a payment's page: its details (with the PSP and terminal that
 * took it and the payment link it came from), its timeline (every event about it and its
 * refunds, with every webhook attempt), its refunds, and the refund form,
 * which goes through the refunds service exactly as
 * `POST /api/v1/payments/{id}/refunds` does: the same request schema, the
 * same service call, the same refusals and messages, idempotent by a key the
 * form carries.
 */
import { randomUUID } from 'node:crypto';
import { KEY_MODES, type Tenant } from '../domain/merchant.ts';
import { PAYMENT_STATUSES, type PaymentStatus } from '../domain/payment.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { createRefundRequestSchema, type CreateRefundRequest } from '../domain/refund-schemas.ts';
import { normalizeSheba } from '../domain/business-documents.ts';
import { refundWindowOpen } from '../domain/refund.ts';
import { DomainError } from '../errors.ts';
import { bodyValidator } from '../http/validation.ts';
import { getPaymentLink } from '../payments/links.ts';
import { findTenantPayment, listPayments } from '../payments/service.ts';
import { listBeneficiaries, withSplits } from '../payments/splits.ts';
import { createRefund, listRefunds } from '../refunds/service.ts';
import { eventsAbout, listWebhookEndpoints, MAX_ENDPOINTS } from '../webhooks/service.ts';
import { strings } from './i18n.ts';
import { CURSOR, modeOf, Refusal, tenantOfUser, UUID, type DashboardKit, type SignedInRequest } from './kit.ts';
import { paymentPage, paymentsPage, type RefundFormState } from './payment-views.ts';

/** A payment has few refunds (each takes part of what is left); the page shows them all up to this. */
const REFUNDS_SHOWN = 100;

/** Persian and Arabic-Indic digits as ASCII, and thousands separators dropped: what a person types as a number. */
export function typedNumber(text: string): string {
  return text
    .trim()
    .replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[,٬\s]/g, '');
}

/**
 * The refund form as the API's JSON body: an empty amount is no amount (the
 * whole remainder, as in the API); digits become a number; anything else
 * stays text, so the API's schema refuses it with the API's message.
 */
export function refundRequestOf(form: URLSearchParams): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const amount = typedNumber(form.get('amount') ?? '');
  if (amount !== '') body.amount = /^\d{1,16}$/.test(amount) ? Number(amount) : amount;
  const reason = (form.get('reason') ?? '').trim();
  if (reason !== '') body.reason = reason;
  // As typed (spaces dropped, Persian digits as ASCII, upper case): the schema and the service check it.
  const iban = normalizeSheba(form.get('destination_iban') ?? '');
  if (iban !== '') body.destination_iban = iban;
  return body;
}

export function paymentPages({
  router,
  deps,
  signedIn,
  readForm,
  html,
  seeOther,
  audit,
  liveAllowed,
  liveDone,
}: DashboardKit): void {
  const { db, config } = deps;
  // The API's own validator of the request (src/http/validation.ts), with the API's bounds.
  const validateRefund = bodyValidator(createRefundRequestSchema({ min: 1, max: config.AMOUNT_MAX }));

  /** The user's payment in whichever mode it is; another merchant's is not found, as through the API. */
  async function ownPayment(request: SignedInRequest): Promise<{ payment: Payment; tenant: Tenant }> {
    const id = request.ctx.params.id ?? '';
    if (UUID.test(id)) {
      for (const mode of KEY_MODES) {
        const tenant = tenantOfUser(request.user, mode);
        const payment = await findTenantPayment(db, id, tenant);
        // With its shares, as GET /api/v1/payments/{id} answers it.
        if (payment !== undefined) return { payment: await withSplits(db, payment), tenant };
      }
    }
    throw new Refusal(404, 'not_found');
  }

  /** The title of the link a payment came from, read as GET /api/v1/payment_links/{id} does; none if it cannot be found. */
  async function titleOfLink(tenant: Tenant, linkId: string): Promise<string | undefined> {
    try {
      return (await getPaymentLink(db, config, tenant, linkId)).title;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'payment_link_not_found') return undefined;
      throw error;
    }
  }

  async function show(
    request: SignedInRequest,
    options: { notice?: string; error?: string; errorDetail?: string; form?: RefundFormState } = {},
    status = 200,
  ) {
    const { payment, tenant } = await ownPayment(request);
    const refunds = await listRefunds(db, tenant, payment.id, { limit: REFUNDS_SHOWN }, config);
    const history = await eventsAbout(db, tenant, [payment.id, ...refunds.data.map((r) => r.id)]);
    const endpoints = await listWebhookEndpoints(db, tenant, { limit: MAX_ENDPOINTS });
    const beneficiaries = payment.splits === undefined ? [] : (await listBeneficiaries(db, tenant)).data;
    const linkTitle = payment.payment_link === null ? undefined : await titleOfLink(tenant, payment.payment_link);
    html(
      request.ctx,
      paymentPage(request.view('payments'), payment, {
        refunds: refunds.data,
        history,
        endpointUrls: new Map(endpoints.data.map((e) => [e.id, e.url])),
        beneficiaryNames: new Map(beneficiaries.map((b) => [b.id, b.name])),
        linkTitle,
        // A new key for every form shown: a double submit of this form is one refund; a corrected resubmission after a refusal is another request.
        form: options.form ?? { amount: '', reason: '', iban: '', idempotencyKey: randomUUID() },
        refundWindowOpen: refundWindowOpen(payment.verified_at, config.REFUND_WINDOW_SECONDS * 1000, Date.now()),
        notice: options.notice,
        error: options.error,
        errorDetail: options.errorDetail,
      }),
      status,
    );
  }

  router.get(
    '/dashboard/payments',
    signedIn(async ({ ctx, view, user }) => {
      const mode = modeOf(ctx.query.mode);
      const status = PAYMENT_STATUSES.includes(ctx.query.status as PaymentStatus)
        ? (ctx.query.status as PaymentStatus)
        : undefined;
      const cursor =
        typeof ctx.query.cursor === 'string' && CURSOR.test(ctx.query.cursor) ? ctx.query.cursor : undefined;
      const page = await listPayments(db, tenantOfUser(user, mode), {
        limit: 20,
        ...(status ? { status } : {}),
        ...(cursor ? { cursor } : {}),
      });
      html(
        ctx,
        paymentsPage(view('payments'), {
          mode,
          status,
          payments: page.data,
          nextCursor: page.next_cursor,
          paged: cursor !== undefined,
        }),
      );
    }),
  );

  router.get(
    '/dashboard/payments/:id',
    signedIn(async (request) => {
      await show(request, {
        notice: request.ctx.query.done === 'refund' ? strings(request.lang).refundCreatedText : undefined,
      });
    }),
  );

  router.post(
    '/dashboard/payments/:id/refunds',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const key = form.get('idempotency_key') ?? '';
      if (!UUID.test(key)) throw new Refusal(400, 'bad_request');
      const { payment, tenant } = await ownPayment(request);
      // A live refund pays real money out: a recent second factor first (the form is shown again after the step-up).
      if (tenant.mode === 'live' && !(await liveAllowed(request, 'live_refund', `/dashboard/payments/${payment.id}`)))
        return;
      let refundRequest: CreateRefundRequest;
      try {
        refundRequest = validateRefund(refundRequestOf(form));
        await createRefund(deps, tenant, payment.id, refundRequest, key);
      } catch (error) {
        if (!(error instanceof DomainError) || error.status >= 500 || error.status === 404) throw error;
        if (error.code === 'idempotency_key_in_use') {
          // A double submit while the first is still being made: the page shows the refund once it is.
          seeOther(request.ctx, `/dashboard/payments/${payment.id}`);
          return;
        }
        const t = strings(request.lang);
        await show(
          request,
          {
            error: t.refundRefused,
            errorDetail: error.message,
            form: {
              amount: form.get('amount') ?? '',
              reason: form.get('reason') ?? '',
              iban: form.get('destination_iban') ?? '',
              idempotencyKey: randomUUID(),
            },
          },
          error.status,
        );
        return;
      }
      const detail = `${payment.id}: ${refundRequest.amount ?? 'the rest'}`;
      await audit(request.ctx, 'refund_requested', request.user, detail);
      if (tenant.mode === 'live') await liveDone(request, 'live_refund', detail);
      seeOther(request.ctx, `/dashboard/payments/${payment.id}?done=refund`);
    }),
  );
}
