/**
 * The settings page: the site's domains (payments' callback URLs must be on one of them), the
 * split beneficiaries (docs/PAYMENTS.md#split-settlement) and the signed-in user's address.
 */
import { DomainNotVerified, domainVerifications, verifyDomain } from '../merchants/domain-verification.ts';
import { normalizeDomain, OnboardingError } from '../merchants/merchants.ts';
import { addDomain, removeDomain } from '../merchants/onboarding.ts';
import { listBeneficiaries, registerBeneficiary } from '../payments/splits.ts';
import { DomainError } from '../errors.ts';
import { strings } from './i18n.ts';
import { Refusal, type DashboardKit, type SignedInRequest } from './kit.ts';
import { settingsPage } from './views.ts';

export function settingsPages({
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
  const { config, db, temporal } = deps;
  const onboarding = { db, temporal, config };

  const settings = async (request: SignedInRequest, options: Parameters<typeof settingsPage>[2] = {}, status = 200) => {
    const domains = await domainVerifications(db, config, request.user.merchantId);
    const { data: beneficiaries } = await listBeneficiaries(db, { merchant: { id: request.user.merchantId } });
    html(
      request.ctx,
      settingsPage(request.view('settings'), { domains, email: request.user.email, beneficiaries }, options),
      status,
    );
  };

  router.get(
    '/dashboard/settings',
    signedIn(async (request) => {
      const t = strings(request.lang);
      const done = request.ctx.query.done;
      const notices: Record<string, string> = {
        added: t.domainAddedText,
        removed: t.domainRemovedText,
        verified: t.domainVerifiedText,
        beneficiary: t.beneficiaryAddedText,
      };
      await settings(request, { notice: typeof done === 'string' ? notices[done] : undefined });
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
        await settings(
          request,
          { error: strings(request.lang).error_invalid_domain, domainValue: domain.slice(0, 300) },
          422,
        );
        return;
      }
      await audit(request.ctx, 'domain_added', request.user, normalizeDomain(domain));
      seeOther(request.ctx, '/dashboard/settings?done=added');
    }),
  );

  // The same rule as POST /api/v1/beneficiaries (a live key's): registered `pending`, for the operator to approve.
  // It names where live money goes, as the settlement IBAN does: a recent second factor first (the form is shown
  // again after the step-up); without two-step sign-in, refused and the owner told.
  router.post(
    '/dashboard/settings/beneficiaries',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      if (!(await liveAllowed(request, 'split_beneficiary', '/dashboard/settings'))) return;
      const value = {
        iban: (form.get('iban') ?? '').slice(0, 40),
        name: (form.get('name') ?? '').trim().slice(0, 200),
      };
      let registered;
      try {
        if (value.name === '') throw new DomainError('validation_failed', 'name is empty');
        registered = await registerBeneficiary(db, { merchant: { id: request.user.merchantId }, mode: 'live' }, value);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        await settings(
          request,
          { beneficiaryError: strings(request.lang).error_invalid_beneficiary, beneficiaryValue: value },
          422,
        );
        return;
      }
      await audit(request.ctx, 'beneficiary_registered', request.user, registered.beneficiary.iban);
      if (registered.created)
        await liveDone(request, 'split_beneficiary', `${registered.beneficiary.iban} (${registered.beneficiary.name})`);
      seeOther(request.ctx, '/dashboard/settings?done=beneficiary');
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

  router.post(
    '/dashboard/settings/domains/verify',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const domain = form.get('domain') ?? '';
      const t = strings(request.lang);
      try {
        await verifyDomain(db, config, request.user.merchantId, domain);
      } catch (error) {
        if (error instanceof OnboardingError) throw new Refusal(400, 'bad_request');
        if (!(error instanceof DomainNotVerified)) throw error;
        await settings(
          request,
          { error: error.reason === 'mismatch' ? t.domainVerifyMismatch : t.domainVerifyUnreachable },
          422,
        );
        return;
      }
      await audit(request.ctx, 'domain_verified', request.user, normalizeDomain(domain));
      seeOther(request.ctx, '/dashboard/settings?done=verified');
    }),
  );
}
