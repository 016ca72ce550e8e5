/**
 * The security page: two-step sign-in (set up with a QR code and a first
 * code, recovery codes shown once; turned off only with a current code) and
 * the merchant's audit log, newest first.
 */
import { AccountError } from '../accounts/accounts.ts';
import { disableTwoFactor, enableTwoFactor, pendingTotpSecret, totpUri, twoFactorStatus } from '../accounts/two-factor.ts';
import { listAudit } from '../db/audit.ts';
import { strings } from './i18n.ts';
import { Refusal, type DashboardKit, type SignedInRequest } from './kit.ts';
import { recoveryCodesPage, securityPage, twoFactorSetupPage } from './security-views.ts';

const AUDIT_PAGE = 20;

export function securityPages({ router, deps, signedIn, readForm, html, seeOther, audit, box }: DashboardKit): void {
  const { db } = deps;

  const security = async (request: SignedInRequest, options: Parameters<typeof securityPage>[2] = {}, status = 200) => {
    const before = typeof request.ctx.query.before === 'string' && /^[1-9][0-9]{0,18}$/.test(request.ctx.query.before) ? Number(request.ctx.query.before) : undefined;
    const { entries, next } = await listAudit(db, request.user.merchantId, { limit: AUDIT_PAGE, ...(before !== undefined ? { before } : {}) });
    html(
      request.ctx,
      securityPage(
        request.view('security'),
        {
          twoFactor: await twoFactorStatus(db, request.user.userId),
          audit: entries,
          ...(next !== undefined ? { olderHref: `/dashboard/security?before=${next}` } : {}),
          ...(before !== undefined ? { newestHref: '/dashboard/security' } : {}),
        },
        options,
      ),
      status,
    );
  };

  router.get(
    '/dashboard/security',
    signedIn(async (request) => {
      await security(request, { notice: request.ctx.query.done === 'disabled' ? strings(request.lang).twoFactorDisabledText : undefined });
    }),
  );

  const setupPage = async (request: SignedInRequest, error?: string, status = 200) => {
    const secret = await pendingTotpSecret({ db, box }, request.user.userId);
    html(request.ctx, await twoFactorSetupPage(request.view('security'), { secret, uri: totpUri(secret, request.user.email) }, error), status);
  };

  router.get(
    '/dashboard/security/two-factor',
    signedIn(async (request) => {
      if (request.user.twoFactor) {
        seeOther(request.ctx, '/dashboard/security');
        return;
      }
      await setupPage(request);
    }),
  );

  router.post(
    '/dashboard/security/two-factor',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      if (request.user.twoFactor) throw new Refusal(409, 'bad_request');
      let codes: string[];
      try {
        codes = await enableTwoFactor({ db, box }, request.user.userId, form.get('code') ?? '');
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        await setupPage(request, strings(request.lang).error_invalid_code, 422);
        return;
      }
      await audit(request.ctx, 'two_factor_enabled', request.user);
      // Shown here, this once: only their hashes are kept.
      html(request.ctx, recoveryCodesPage(request.view('security'), codes), 201);
    }),
  );

  router.post(
    '/dashboard/security/two-factor/disable',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      if (!request.user.twoFactor) {
        seeOther(request.ctx, '/dashboard/security');
        return;
      }
      let method;
      try {
        method = await disableTwoFactor({ db, box }, request.user.userId, form.get('code') ?? '');
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        await audit(request.ctx, 'two_factor_failed', request.user, 'turning two-step sign-in off');
        await security(request, { error: strings(request.lang).error_invalid_code }, 422);
        return;
      }
      if (method === 'recovery_code') await audit(request.ctx, 'recovery_code_used', request.user);
      await audit(request.ctx, 'two_factor_disabled', request.user);
      seeOther(request.ctx, '/dashboard/security?done=disabled');
    }),
  );
}
