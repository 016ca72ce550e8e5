/**
 * The account: sign-up and the emailed confirmation, sign-in (with its
 * second step when two-step sign-in is on), the forgotten password and its
 * reset, sign-out here and everywhere. Every attempt and change goes to the
 * audit log.
 */
import type { Context } from 'koa';
import { AccountError, checkCredentials, confirmEmail, signUp, type SignedInUser } from '../accounts/accounts.ts';
import { mailOwner } from '../accounts/owner-mail.ts';
import { checkResetLink, requestPasswordReset, resetPassword } from '../accounts/password-reset.ts';
import { endAllSessions, endSession, sessionUser, startSession } from '../accounts/sessions.ts';
import { challengeStands, passChallenge, startChallenge } from '../accounts/two-factor.ts';
import { strings } from './i18n.ts';
import type { DashboardKit, Request } from './kit.ts';
import { forgotPasswordPage, resetPasswordPage, twoFactorSignInPage } from './security-views.ts';
import { messagePage, signInPage, signUpPage } from './views.ts';

export function accountPages({
  router,
  deps,
  page,
  signedIn,
  readForm,
  html,
  seeOther,
  audit,
  cookies,
  box,
}: DashboardKit): void {
  const { config, db, mailer, temporal, logger } = deps;

  router.get(
    '/dashboard',
    page(async ({ ctx }) => {
      seeOther(
        ctx,
        (await sessionUser(db, config, cookies.session(ctx))) === undefined
          ? '/dashboard/sign-in'
          : '/dashboard/overview',
      );
    }),
  );

  router.get(
    '/dashboard/sign-up',
    page(async ({ ctx, view }) => {
      html(ctx, signUpPage(view(), { email: '', business_name: '' }));
    }),
  );

  router.post(
    '/dashboard/sign-up',
    page(async ({ ctx, lang, view }) => {
      const form = await readForm(ctx);
      const values = { email: form.get('email') ?? '', business_name: form.get('business_name') ?? '' };
      try {
        await signUp(
          { db, config, mailer, temporal },
          {
            email: values.email,
            password: form.get('password') ?? '',
            businessName: values.business_name,
            lang,
            address: ctx.ip,
          },
        );
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        html(ctx, signUpPage(view(), values, strings(lang)[`error_${error.code}`]), 422);
        return;
      }
      seeOther(ctx, '/dashboard/sign-up/sent');
    }),
  );

  router.get(
    '/dashboard/sign-up/sent',
    page(async ({ ctx, lang, view }) => {
      const t = strings(lang);
      html(ctx, messagePage(view(), { title: t.checkEmailTitle, text: t.checkEmailText }, { kind: 'info' }));
    }),
  );

  router.get(
    '/dashboard/confirm',
    page(async ({ ctx, lang, view }) => {
      const t = strings(lang);
      const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
      try {
        await confirmEmail(db, token);
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        html(
          ctx,
          messagePage(view(), { title: t.badRequestTitle, text: t.error_invalid_link }, { kind: 'error' }),
          400,
        );
        return;
      }
      html(
        ctx,
        messagePage(
          view(),
          { title: t.confirmedTitle, text: t.confirmedText },
          { kind: 'success', link: { href: '/dashboard/sign-in', label: t.signInButton } },
        ),
      );
    }),
  );

  router.get(
    '/dashboard/sign-in',
    page(async ({ ctx, lang, view }) => {
      const t = strings(lang);
      const notice =
        ctx.query.signed_out === '1'
          ? t.signedOutText
          : ctx.query.ended === '1'
            ? t.sessionEndedText
            : ctx.query.challenge_ended === '1'
              ? t.challengeEndedText
              : undefined;
      html(ctx, signInPage(view(), { email: '' }, { notice }));
    }),
  );

  router.post(
    '/dashboard/sign-in',
    page(async ({ ctx, lang, view }) => {
      const form = await readForm(ctx);
      const email = form.get('email') ?? '';
      let user: SignedInUser;
      try {
        user = await checkCredentials(db, { email, password: form.get('password') ?? '', address: ctx.ip });
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        await audit(ctx, 'sign_in_failed', error.subject, error.code);
        html(ctx, signInPage(view(), { email }, { error: strings(lang)[`error_${error.code}`] }), 401);
        return;
      }
      if (user.twoFactor) {
        // The password was right; the session waits for the second factor.
        cookies.setChallenge(ctx, await startChallenge(db, user.userId));
        seeOther(ctx, '/dashboard/sign-in/two-factor');
        return;
      }
      await signIn(ctx, user, 'password', false);
    }),
  );

  /** Starts the session of a user who passed every step of sign-in. */
  const signIn = async (ctx: Context, user: SignedInUser, how: string, secondFactor: boolean) => {
    // A new session id at every sign-in: a session planted before it (fixation) never becomes a signed-in one.
    const token = await startSession(db, config, user.userId, cookies.session(ctx), secondFactor);
    cookies.setSession(ctx, token);
    await audit(ctx, 'sign_in', user, how);
    seeOther(ctx, '/dashboard/overview');
  };

  router.get(
    '/dashboard/sign-in/two-factor',
    page(async ({ ctx, view }) => {
      if (!(await challengeStands(db, cookies.challenge(ctx)))) {
        seeOther(ctx, '/dashboard/sign-in?challenge_ended=1');
        return;
      }
      html(ctx, twoFactorSignInPage(view()));
    }),
  );

  router.post(
    '/dashboard/sign-in/two-factor',
    page(async ({ ctx, lang, view }) => {
      const form = await readForm(ctx);
      try {
        const { user, method } = await passChallenge(
          { db, box },
          cookies.challenge(ctx),
          form.get('code') ?? '',
          ctx.ip,
        );
        cookies.clearChallenge(ctx);
        if (method === 'recovery_code') await audit(ctx, 'recovery_code_used', user);
        await signIn(ctx, user, method === 'totp' ? 'password + TOTP' : 'password + recovery code', true);
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        if (error.code === 'invalid_link') {
          cookies.clearChallenge(ctx);
          seeOther(ctx, '/dashboard/sign-in?challenge_ended=1');
          return;
        }
        await audit(ctx, 'two_factor_failed', error.subject, 'sign-in');
        html(ctx, twoFactorSignInPage(view(), strings(lang).error_invalid_code), 401);
      }
    }),
  );

  // ---- Password reset ----

  router.get(
    '/dashboard/forgot-password',
    page(async ({ ctx, view }) => {
      html(ctx, forgotPasswordPage(view(), { email: '' }));
    }),
  );

  router.post(
    '/dashboard/forgot-password',
    page(async ({ ctx, lang }) => {
      const form = await readForm(ctx);
      // The same answer whether the address has an account or not.
      const account = await requestPasswordReset(
        { db, config, mailer, logger },
        { email: form.get('email') ?? '', lang },
      );
      if (account !== undefined) await audit(ctx, 'password_reset_requested', account);
      seeOther(ctx, '/dashboard/forgot-password/sent');
    }),
  );

  router.get(
    '/dashboard/forgot-password/sent',
    page(async ({ ctx, lang, view }) => {
      const t = strings(lang);
      html(ctx, messagePage(view(), { title: t.forgotSentTitle, text: t.forgotSentText }, { kind: 'info' }));
    }),
  );

  const invalidLink = (ctx: Context, request: Request) => {
    const t = strings(request.lang);
    html(
      ctx,
      messagePage(
        request.view(),
        { title: t.badRequestTitle, text: t.error_invalid_link },
        { kind: 'error', link: { href: '/dashboard/forgot-password', label: t.forgotTitle } },
      ),
      400,
    );
  };

  router.get(
    '/dashboard/reset',
    page(async (request) => {
      const { ctx, view } = request;
      const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
      try {
        await checkResetLink(db, token);
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        invalidLink(ctx, request);
        return;
      }
      html(ctx, resetPasswordPage(view(), token));
    }),
  );

  router.post(
    '/dashboard/reset',
    page(async (request) => {
      const { ctx, lang, view } = request;
      const form = await readForm(ctx);
      const token = form.get('token') ?? '';
      let account;
      try {
        account = await resetPassword(db, token, form.get('password') ?? '');
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        if (error.code !== 'weak_password') {
          invalidLink(ctx, request);
          return;
        }
        html(ctx, resetPasswordPage(view(), token, strings(lang).error_weak_password), 422);
        return;
      }
      await audit(ctx, 'password_reset', account);
      // Every session ended with the reset; the authenticator stays, so its owner is told (it may not be theirs).
      if (account.twoFactorKept)
        await mailOwner({ db, mailer, baseUrl: config.PUBLIC_BASE_URL }, account.email, lang, {
          kind: 'password_reset_two_factor_kept',
        });
      cookies.clearSession(ctx);
      const t = strings(lang);
      html(
        ctx,
        messagePage(
          view(),
          { title: t.resetDoneTitle, text: t.resetDoneText },
          { kind: 'success', link: { href: '/dashboard/sign-in', label: t.signInButton } },
        ),
      );
    }),
  );

  router.post(
    '/dashboard/sign-out',
    page(async ({ ctx }) => {
      await readForm(ctx);
      const token = cookies.session(ctx);
      const user = await sessionUser(db, config, token);
      if (token !== undefined) await endSession(db, token);
      if (user !== undefined) await audit(ctx, 'sign_out', user);
      cookies.clearSession(ctx);
      seeOther(ctx, '/dashboard/sign-in?signed_out=1');
    }),
  );

  router.post(
    '/dashboard/sign-out-everywhere',
    signedIn(async ({ ctx, user }) => {
      await readForm(ctx);
      await endAllSessions(db, user.userId);
      await audit(ctx, 'sign_out_everywhere', user);
      cookies.clearSession(ctx);
      seeOther(ctx, '/dashboard/sign-in?signed_out=1');
    }),
  );
}
