/** The settings page: the site's domains (payments' callback URLs must be on one of them) and the signed-in user's address. */
import { normalizeDomain, OnboardingError } from '../merchants/merchants.ts';
import { addDomain, merchantSummary, removeDomain } from '../merchants/onboarding.ts';
import { strings } from './i18n.ts';
import { Refusal, type DashboardKit, type SignedInRequest } from './kit.ts';
import { settingsPage } from './views.ts';

export function settingsPages({ router, deps, signedIn, readForm, html, seeOther, audit }: DashboardKit): void {
  const { config, db, temporal } = deps;
  const onboarding = { db, temporal, config };

  const settings = async (request: SignedInRequest, options: Parameters<typeof settingsPage>[2] = {}, status = 200) => {
    const summary = await merchantSummary(db, request.user.merchantId);
    html(request.ctx, settingsPage(request.view('settings'), { domains: summary.domains, email: request.user.email }, options), status);
  };

  router.get(
    '/dashboard/settings',
    signedIn(async (request) => {
      const t = strings(request.lang);
      const done = request.ctx.query.done;
      await settings(request, { notice: done === 'added' ? t.domainAddedText : done === 'removed' ? t.domainRemovedText : undefined });
    }),
  );

  router.post(
    '/dashboard/settings/domains',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const domain = form.get('domain') ?? '';
      try {
        await addDomain(onboarding, request.user.merchantId, domain);
      } catch (error) {
        if (!(error instanceof OnboardingError)) throw error;
        await settings(request, { error: strings(request.lang).error_invalid_domain, domainValue: domain.slice(0, 300) }, 422);
        return;
      }
      await audit(request.ctx, 'domain_added', request.user, normalizeDomain(domain));
      seeOther(request.ctx, '/dashboard/settings?done=added');
    }),
  );

  router.post(
    '/dashboard/settings/domains/remove',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const domain = form.get('domain') ?? '';
      try {
        await removeDomain(db, request.user.merchantId, domain);
      } catch (error) {
        if (!(error instanceof OnboardingError)) throw error;
        throw new Refusal(400, 'bad_request');
      }
      await audit(request.ctx, 'domain_removed', request.user, normalizeDomain(domain));
      seeOther(request.ctx, '/dashboard/settings?done=removed');
    }),
  );
}
