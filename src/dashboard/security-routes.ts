/**
 * The security page: two-step sign-in (turned on, off, or given new recovery
 * codes only with the password again, the link then emailed to the account's
 * address, and a code), the step-up page that live actions send a session to,
 * and the merchant's audit log, newest first.
 */
import { AccountError } from '../accounts/accounts.ts';
import { recordSecondFactor } from '../accounts/sessions.ts';
import { passStepUp } from '../accounts/step-up.ts';
import {
  CHANGE_PATHS,
  checkTwoFactorChange,
  completeTwoFactorChange,
  requestTwoFactorChange,
  type TwoFactorChange,
} from '../accounts/two-factor-changes.ts';
import { pendingTotpSecret, totpUri, twoFactorStatus } from '../accounts/two-factor.ts';
import { auditLogPage } from '../accounts/audit.ts';
import { strings } from './i18n.ts';
import { Refusal, type DashboardKit, type SignedInRequest } from './kit.ts';
import {
  recoveryCodesPage,
  securityPage,
  stepUpPage,
  twoFactorCodePage,
  twoFactorSetupPage,
} from './security-views.ts';
import { messagePage } from './views.ts';

const AUDIT_PAGE = 20;
const CHANGES: readonly TwoFactorChange[] = ['two_factor_on', 'two_factor_off', 'recovery_codes'];
/** Where a step-up may return to: a dashboard page of ours, never another site. */
const RETURN_PATH = /^\/dashboard\/[A-Za-z0-9/_.?=&%-]{0,300}$/;

export function securityPages({
  router,
  deps,
  signedIn,
  readForm,
  html,
  seeOther,
  audit,
  box,
  cookies,
}: DashboardKit): void {
  const { db, config, mailer } = deps;

  const security = async (request: SignedInRequest, options: Parameters<typeof securityPage>[2] = {}, status = 200) => {
    const before =
      typeof request.ctx.query.before === 'string' && /^[1-9][0-9]{0,18}$/.test(request.ctx.query.before)
        ? Number(request.ctx.query.before)
        : undefined;
    const { entries, next } = await auditLogPage(db, request.user.merchantId, {
      limit: AUDIT_PAGE,
      ...(before !== undefined ? { before } : {}),
    });
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
      const t = strings(request.lang);
      const done = request.ctx.query.done;
      const notice =
        done === 'disabled' ? t.twoFactorDisabledText : done === 'emailed' ? t.changeEmailedText : undefined;
      await security(request, { notice });
    }),
  );

  // Step 1 of every change: the password again, then the link to the account's address.
  router.post(
    '/dashboard/security/two-factor/request',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const change = CHANGES.find((c) => c === form.get('change'));
      if (change === undefined) throw new Refusal(400, 'bad_request');
      try {
        await requestTwoFactorChange({ db, config, mailer }, request.user, change, {
          password: form.get('password') ?? '',
          address: request.ctx.ip,
          lang: request.lang,
        });
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        if (error.code === 'invalid_link') throw new Refusal(409, 'bad_request');
        await audit(
          request.ctx,
          'sign_in_failed',
          request.user,
          'password asked again before a two-step sign-in change',
        );
        await security(request, { error: strings(request.lang).wrongPasswordText }, 422);
        return;
      }
      await audit(request.ctx, 'two_factor_change_requested', request.user, change);
      seeOther(request.ctx, '/dashboard/security?done=emailed');
    }),
  );

  const invalidLink = (request: SignedInRequest) => {
    const t = strings(request.lang);
    html(
      request.ctx,
      messagePage(
        request.view('security'),
        { title: t.badRequestTitle, text: t.error_invalid_link },
        { kind: 'error', link: { href: '/dashboard/security', label: t.navSecurity } },
      ),
      400,
    );
  };

  /** The page of step 2 (the emailed link opened): the code, and for turning on the new secret to scan. */
  const changePage = async (
    request: SignedInRequest,
    change: TwoFactorChange,
    token: string,
    error?: string,
    status = 200,
  ) => {
    if (change === 'two_factor_on') {
      const secret = await pendingTotpSecret({ db, box }, request.user.userId);
      html(
        request.ctx,
        await twoFactorSetupPage(
          request.view('security'),
          { secret, uri: totpUri(secret, request.user.email), token },
          error,
        ),
        status,
      );
    } else
      html(
        request.ctx,
        twoFactorCodePage(request.view('security'), { change, action: CHANGE_PATHS[change], token }, error),
        status,
      );
  };

  for (const change of CHANGES) {
    router.get(
      CHANGE_PATHS[change],
      signedIn(async (request) => {
        const token = typeof request.ctx.query.token === 'string' ? request.ctx.query.token : '';
        try {
          await checkTwoFactorChange({ db }, request.user, change, token);
        } catch (error) {
          if (!(error instanceof AccountError)) throw error;
          invalidLink(request);
          return;
        }
        await changePage(request, change, token);
      }),
    );

    router.post(
      CHANGE_PATHS[change],
      signedIn(async (request) => {
        const form = await readForm(request.ctx);
        const token = form.get('token') ?? '';
        let made;
        try {
          made = await completeTwoFactorChange({ db, config, mailer, box }, request.user, change, {
            token,
            code: form.get('code') ?? '',
            lang: request.lang,
            address: request.ctx.ip,
          });
        } catch (error) {
          if (!(error instanceof AccountError)) throw error;
          if (error.code === 'invalid_link') {
            invalidLink(request);
            return;
          }
          // A wrong first code of a new secret is a typo, not an attack on the account: only the others are recorded.
          if (change !== 'two_factor_on') await audit(request.ctx, 'two_factor_failed', request.user, change);
          await changePage(request, change, token, strings(request.lang).error_invalid_code, 422);
          return;
        }
        if (made.usedRecoveryCode) await audit(request.ctx, 'recovery_code_used', request.user);
        if (change === 'two_factor_off') {
          await audit(request.ctx, 'two_factor_disabled', request.user);
          seeOther(request.ctx, '/dashboard/security?done=disabled');
          return;
        }
        await audit(
          request.ctx,
          change === 'two_factor_on' ? 'two_factor_enabled' : 'recovery_codes_renewed',
          request.user,
        );
        // The new authenticator's first code was just proved in this session: it counts as its step-up.
        if (change === 'two_factor_on') await recordSecondFactor(db, cookies.session(request.ctx) ?? '');
        // Shown here, this once: only their hashes are kept.
        html(request.ctx, recoveryCodesPage(request.view('security'), made.codes ?? [], change), 201);
      }),
    );
  }

  const returnOf = (value: unknown) =>
    typeof value === 'string' && RETURN_PATH.test(value) ? value : '/dashboard/overview';

  router.get(
    '/dashboard/step-up',
    signedIn(async (request) => {
      if (!request.user.twoFactor) {
        seeOther(request.ctx, '/dashboard/security');
        return;
      }
      html(request.ctx, stepUpPage(request.view(), returnOf(request.ctx.query.return)));
    }),
  );

  router.post(
    '/dashboard/step-up',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const back = returnOf(form.get('return'));
      let method;
      try {
        method = await passStepUp({ db, box }, request.user, form.get('code') ?? '', request.ctx.ip);
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        await audit(request.ctx, 'two_factor_failed', request.user, 'step-up');
        html(request.ctx, stepUpPage(request.view(), back, strings(request.lang).error_invalid_code), 401);
        return;
      }
      await recordSecondFactor(db, cookies.session(request.ctx) ?? '');
      if (method === 'recovery_code') await audit(request.ctx, 'recovery_code_used', request.user);
      await audit(request.ctx, 'step_up', request.user, back);
      seeOther(request.ctx, back);
    }),
  );
}
