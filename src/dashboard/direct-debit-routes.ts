/**
 * The direct debit area (docs/DASHBOARD.md#direct-debit): one mode's mandates and subscriptions (20 a
 * page, the API's cursor), a mandate's page and a subscription's page, and their cancels. Everything
 * goes through the services the API and the CLI use (src/direct-debit/), scoped to the signed-in
 * user's merchant: another merchant's mandate or subscription is 404, as through the API. A cancel
 * goes through the object's workflow, which ends a mandate at its provider too (and its subscriptions
 * with it); each is recorded in the audit log. A live cancel ends a customer's billing for real, so it
 * needs a recent second factor (the step-up), as the other live actions do.
 */
import { cancelMandate, listMandates, mandateDetail } from '../direct-debit/mandates.ts';
import { cancelSubscription, listSubscriptionsWithPlans, subscriptionDetail } from '../direct-debit/subscriptions.ts';
import { DomainError } from '../errors.ts';
import { KEY_MODES, type KeyMode, type Tenant } from '../domain/merchant.ts';
import { strings } from './i18n.ts';
import { CURSOR, idInPath, modeOf, Refusal, tenantOfUser, type DashboardKit, type SignedInRequest } from './kit.ts';
import {
  mandateHref,
  mandatePage,
  mandatesPage,
  subscriptionHref,
  subscriptionPage,
  subscriptionsPage,
} from './direct-debit-views.ts';

const PER_PAGE = 20;

export function directDebitPages({
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
  const { db, config, temporal } = deps;

  const cursorOf = (value: unknown) => (typeof value === 'string' && CURSOR.test(value) ? value : undefined);

  /**
   * The user's object in whichever mode it is (ids are uuids: one mode has it at most); another
   * merchant's is not found, as through the API.
   */
  async function own<T>(request: SignedInRequest, read: (tenant: Tenant, id: string) => Promise<T>) {
    const id = idInPath(request);
    for (const mode of KEY_MODES) {
      const tenant = tenantOfUser(request.user, mode);
      try {
        return { view: await read(tenant, id), tenant };
      } catch (error) {
        if (!(error instanceof DomainError && error.status === 404)) throw error;
      }
    }
    throw new Refusal(404, 'not_found');
  }
  const ownMandate = (request: SignedInRequest) =>
    own(request, (tenant, id) => mandateDetail({ db, config }, tenant, id));
  const ownSubscription = (request: SignedInRequest) =>
    own(request, (tenant, id) => subscriptionDetail({ db, config }, tenant, id));

  /** A live cancel needs a recent second factor; the step-up comes back to the object's page. */
  const mayCancel = async (request: SignedInRequest, mode: KeyMode, returnTo: string) =>
    mode === 'test' || (await liveAllowed(request, 'direct_debit_cancel', returnTo));

  router.get(
    '/dashboard/mandates',
    signedIn(async ({ ctx, view, user }) => {
      const mode = modeOf(ctx.query.mode);
      const cursor = cursorOf(ctx.query.cursor);
      const page = await listMandates(db, tenantOfUser(user, mode), { limit: PER_PAGE, ...(cursor ? { cursor } : {}) });
      html(
        ctx,
        mandatesPage(view('directDebit'), {
          mode,
          data: page.data,
          nextCursor: page.next_cursor,
          paged: cursor !== undefined,
        }),
      );
    }),
  );

  router.get(
    '/dashboard/mandates/:id',
    signedIn(async (request) => {
      const { view } = await ownMandate(request);
      const t = strings(request.lang);
      html(
        request.ctx,
        mandatePage(
          request.view('directDebit'),
          view,
          request.ctx.query.done === 'canceled' ? t.mandateCanceledText : undefined,
        ),
      );
    }),
  );

  router.post(
    '/dashboard/mandates/:id/cancel',
    signedIn(async (request) => {
      await readForm(request.ctx);
      const { view, tenant } = await ownMandate(request);
      const mandate = view.mandate;
      if (!(await mayCancel(request, tenant.mode, mandateHref(mandate)))) return;
      // Through the mandate's workflow: ended at the provider, then its subscriptions, then answered.
      await cancelMandate({ db, temporal }, tenant, mandate.id);
      const detail = `${tenant.mode}: ${mandate.id}`;
      await audit(request.ctx, 'mandate_canceled', request.user, detail);
      if (tenant.mode === 'live') await liveDone(request, 'direct_debit_cancel', `mandate ${mandate.id}`);
      seeOther(request.ctx, `${mandateHref(mandate)}${tenant.mode === 'live' ? '&' : '?'}done=canceled`);
    }),
  );

  router.get(
    '/dashboard/subscriptions',
    signedIn(async ({ ctx, view, user }) => {
      const mode = modeOf(ctx.query.mode);
      const cursor = cursorOf(ctx.query.cursor);
      const page = await listSubscriptionsWithPlans({ db, config }, tenantOfUser(user, mode), {
        limit: PER_PAGE,
        ...(cursor ? { cursor } : {}),
      });
      html(
        ctx,
        subscriptionsPage(view('directDebit'), {
          mode,
          data: page.data,
          nextCursor: page.next_cursor,
          paged: cursor !== undefined,
        }),
      );
    }),
  );

  router.get(
    '/dashboard/subscriptions/:id',
    signedIn(async (request) => {
      const { view } = await ownSubscription(request);
      const t = strings(request.lang);
      const done = request.ctx.query.done;
      html(
        request.ctx,
        subscriptionPage(
          request.view('directDebit'),
          view,
          done === 'canceled' ? t.subscriptionCanceledText : done === 'ending' ? t.subscriptionEndingText : undefined,
        ),
      );
    }),
  );

  router.post(
    '/dashboard/subscriptions/:id/cancel',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const when = form.get('when');
      if (when !== 'period_end' && when !== 'now') throw new Refusal(400, 'bad_request');
      const { view, tenant } = await ownSubscription(request);
      const subscription = view.subscription;
      if (!(await mayCancel(request, tenant.mode, subscriptionHref(subscription)))) return;
      // The merchant's own cancel, through the subscription's workflow (a canceled one answers as it is).
      const atPeriodEnd = when === 'period_end';
      const after = await cancelSubscription(deps, tenant, subscription.id, atPeriodEnd);
      const detail = `${tenant.mode}: ${subscription.id} ${atPeriodEnd ? 'at period end' : 'now'}`;
      await audit(request.ctx, 'subscription_canceled', request.user, detail);
      if (tenant.mode === 'live') await liveDone(request, 'direct_debit_cancel', `subscription ${subscription.id}`);
      const done = after.status === 'canceled' ? 'canceled' : 'ending';
      seeOther(request.ctx, `${subscriptionHref(subscription)}${tenant.mode === 'live' ? '&' : '?'}done=${done}`);
    }),
  );
}
