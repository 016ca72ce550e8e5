/**
 * The payment links area (docs/DASHBOARD.md#payment-links): a mode's links,
 * made and deactivated with the API's schema and functions
 * (src/payments/links.ts), scoped to the signed-in user's merchant and the
 * chosen mode, each action recorded in the audit log. A live link takes live
 * money that the gateway verifies itself, so it is made only for a merchant
 * approved for live mode, by a user with two-step sign-in who proved it in
 * the last few minutes (the step-up), as a live key is.
 */
import {
  createPaymentLinkRequestSchema,
  COLLECTED_FIELDS,
  amountFromText,
  type CreatePaymentLinkRequest,
} from '../domain/payment-link.ts';
import { DomainError } from '../errors.ts';
import { bodyValidator } from '../http/validation.ts';
import { createPaymentLink, deactivatePaymentLink, listPaymentLinks } from '../payments/links.ts';
import { merchantSummary } from '../merchants/onboarding.ts';
import { strings } from './i18n.ts';
import { idInPath, modeOf, modeQuery, tenantOfUser, type DashboardKit, type SignedInRequest } from './kit.ts';
import { linksPage, type LinkFormValues } from './link-views.ts';
import type { KeyMode } from '../domain/merchant.ts';

/** The page lists this many links, newest first. */
const LINKS_PER_PAGE = 50;
const DAY_MS = 86_400_000;

/** The form's text as the API's request body: numbers typed in either script, empty fields left out. */
function requestFromForm(form: LinkFormValues, now: number): Record<string, unknown> {
  const number = (text: string | undefined) =>
    text === undefined || text.trim() === '' ? undefined : (amountFromText(text) ?? text);
  const days = number(form.expires_in_days);
  const collect = Object.fromEntries(
    COLLECTED_FIELDS.flatMap((field) => (form[`collect_${field}`] ? [[field, form[`collect_${field}`]]] : [])),
  );
  const body: Record<string, unknown> = {
    title: (form.title ?? '').trim(),
    ...(form.description?.trim() ? { description: form.description.trim() } : {}),
    amount: number(form.amount),
    min_amount: number(form.min_amount),
    max_amount: number(form.max_amount),
    max_payments: number(form.max_payments),
    collect,
    // Days from now: a date the merchant need not convert from Tehran's time.
    expires_at: typeof days === 'number' ? new Date(now + days * DAY_MS).toISOString() : days,
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

export function linkPages({
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
  const validateCreate = bodyValidator(
    createPaymentLinkRequestSchema({ min: config.AMOUNT_MIN, max: config.AMOUNT_MAX }),
  );

  const page = async (
    request: SignedInRequest,
    mode: KeyMode,
    options: Parameters<typeof linksPage>[2] = {},
    status = 200,
  ) => {
    const links = await listPaymentLinks(db, config, tenantOfUser(request.user, mode), { limit: LINKS_PER_PAGE });
    html(request.ctx, linksPage(request.view('links'), { mode, links: links.data }, options), status);
  };

  router.get(
    '/dashboard/links',
    signedIn(async (request) => {
      const t = strings(request.lang);
      const done = request.ctx.query.done;
      await page(request, modeOf(request.ctx.query.mode), {
        notice: done === 'created' ? t.linkCreatedText : done === 'deactivated' ? t.linkDeactivatedText : undefined,
      });
    }),
  );

  router.post(
    '/dashboard/links',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const mode = modeOf(form.get('mode'));
      const values: LinkFormValues = {};
      for (const name of [
        'title',
        'description',
        'amount',
        'min_amount',
        'max_amount',
        'expires_in_days',
        'max_payments',
        'collect_name',
        'collect_mobile',
        'collect_note',
      ] as const) {
        const value = form.get(name);
        if (value !== null) values[name] = value.slice(0, 500);
      }
      if (mode === 'live') {
        // Not approved for live mode: refused with what was typed kept, nothing made.
        if (!(await merchantSummary(db, request.user.merchantId)).live_mode) {
          await page(request, mode, { error: strings(request.lang).linkLiveRefused, form: values }, 409);
          return;
        }
        // No two-step sign-in (403, the owner is mailed) or no recent second factor (the step-up page, then back here).
        if (!(await liveAllowed(request, 'live_link', '/dashboard/links?mode=live'))) return;
      }
      let created: CreatePaymentLinkRequest;
      try {
        created = validateCreate(requestFromForm(values, Date.now()));
        const result = await createPaymentLink(deps, tenantOfUser(request.user, mode), created, undefined);
        const link = (result.body as { payment_link: { id: string; slug: string } }).payment_link;
        await audit(request.ctx, 'payment_link_created', request.user, `${mode}: ${link.slug} ${created.title}`);
        if (mode === 'live') await liveDone(request, 'live_link', `${link.slug} ${created.title}`);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'validation_failed') throw error;
        await page(
          request,
          mode,
          { error: strings(request.lang).linkRefused, errorDetail: error.message, form: values },
          422,
        );
        return;
      }
      seeOther(request.ctx, `/dashboard/links?done=created${modeQuery(mode, '&')}`);
    }),
  );

  router.post(
    '/dashboard/links/:id/deactivate',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const mode = modeOf(form.get('mode'));
      const link = await deactivatePaymentLink(db, config, tenantOfUser(request.user, mode), idInPath(request));
      await audit(request.ctx, 'payment_link_deactivated', request.user, `${mode}: ${link.slug}`);
      seeOther(request.ctx, `/dashboard/links?done=deactivated${modeQuery(mode, '&')}`);
    }),
  );
}
