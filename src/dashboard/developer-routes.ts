/**
 * The developers page: the merchant's gateway and live mode, and its API
 * keys (make one, shown once; revoke; roll with a grace period for the old
 * key). Live keys wait for live mode and the documents it needs.
 */
import {
  createDashboardKey,
  issueDashboardCompatCredentials,
  LiveKeyRefused,
  liveKeyMissing,
  rollDashboardKey,
  setDashboardKeyRefunds,
} from '../accounts/dashboard-keys.ts';
import { StepUpNeeded } from '../accounts/step-up.ts';
import { parseKey } from '../merchants/keys.ts';
import { OnboardingError } from '../merchants/merchants.ts';
import { listMerchantKeys, merchantSummary, revokeMerchantKey, TestKeyLimitReached } from '../merchants/onboarding.ts';
import { merchantRoutes } from '../merchants/psp-routes.ts';
import { strings } from './i18n.ts';
import { Refusal, UUID, type DashboardKit, type SignedInRequest } from './kit.ts';
import { developersPage } from './views.ts';
import { compatSection } from './credential-views.ts';
import {
  listCompatCredentials,
  revokeCompatCredentials,
  type CompatCredentials,
} from '../merchants/compat-credentials.ts';

/** How long the old key keeps working after a roll: the choices the form offers (now, 1 h, 24 h, 7 days). */
export const ROLL_EXPIRIES = new Set([0, 3_600, 86_400, 604_800]);

/** The developers page with what just happened (a new key, a notice, a refusal); the onboarding steps answer with it too. */
export async function showDevelopers(
  { deps, html }: DashboardKit,
  request: SignedInRequest,
  options: Parameters<typeof developersPage>[2] = {},
  status = 200,
  /** ZarinPal's and Zibal's values just made: shown this once. */
  newCompat?: CompatCredentials,
): Promise<void> {
  const summary = await merchantSummary(deps.db, request.user.merchantId);
  const keys = await listMerchantKeys(deps.db, request.user.merchantId);
  const missing = await liveKeyMissing(deps.db, request.user);
  const routes = await merchantRoutes(deps.db, deps.config, request.user.merchantId);
  const compat = compatSection(await listCompatCredentials(deps.db, request.user.merchantId), request.lang, newCompat);
  html(
    request.ctx,
    developersPage(
      request.view('developers'),
      { ...summary, keys, liveKeyMissing: missing, routes },
      { ...options, compat },
    ),
    status,
  );
}

export function developerPages(kit: DashboardKit): void {
  const { router, deps, signedIn, readForm, seeOther, audit, liveRefused, stepUp, liveDone, liveAllowed } = kit;
  const { db } = deps;
  const developers = (request: SignedInRequest, options?: Parameters<typeof developersPage>[2], status?: number) =>
    showDevelopers(kit, request, options, status);

  /**
   * A live key refused: what is missing (live mode, two-step sign-in) on the page, recorded and mailed
   * to the owner when it is two-step sign-in; a session without a recent second factor goes to the step-up.
   * Answers false when `error` is no such refusal.
   */
  const refusedLiveKey = async (request: SignedInRequest, error: unknown): Promise<boolean> => {
    if (error instanceof StepUpNeeded) {
      stepUp(request, '/dashboard/developers');
      return true;
    }
    if (!(error instanceof LiveKeyRefused)) return false;
    if (error.missing.includes('two_factor')) await liveRefused(request, 'live_key');
    await developers(request, { refusedMissing: error.missing }, 409);
    return true;
  };

  router.get(
    '/dashboard/developers',
    signedIn(async (request) => {
      const t = strings(request.lang);
      const done = request.ctx.query.done;
      const notices: Record<string, string> = {
        gateway: t.gatewayRequestedText,
        revoked: t.keyRevokedText,
        live: t.liveActivatedText,
        compat_revoked: t.compatRevokedText,
        refunds_granted: t.refundsGrantedText,
        refunds_withdrawn: t.refundsWithdrawnText,
      };
      const notice = typeof done === 'string' && Object.hasOwn(notices, done) ? notices[done] : undefined;
      await developers(request, { notice });
    }),
  );

  router.post(
    '/dashboard/developers/keys',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const mode = form.get('mode');
      if (mode !== 'test' && mode !== 'live') throw new Refusal(400, 'bad_request');
      let key;
      try {
        key = await createDashboardKey(db, request.user, mode, deps.config.TEST_KEYS_PER_MERCHANT);
      } catch (error) {
        if (error instanceof TestKeyLimitReached) {
          await developers(request, { error: strings(request.lang).testKeyLimitText }, 409);
          return;
        }
        if (await refusedLiveKey(request, error)) return;
        throw error;
      }
      const prefix = `${parseKey(key.key)!.prefix}…`;
      await audit(request.ctx, 'key_created', request.user, prefix);
      if (mode === 'live') await liveDone(request, 'live_key', `${prefix} created`);
      // Answered here, not after a redirect: the key is shown this once and stored nowhere.
      await developers(request, { newKey: key.key }, 201);
    }),
  );

  router.post(
    '/dashboard/developers/keys/:id/revoke',
    signedIn(async (request) => {
      await readForm(request.ctx);
      const id = request.ctx.params.id ?? '';
      if (!UUID.test(id)) throw new Refusal(404, 'not_found');
      try {
        await revokeMerchantKey(db, request.user.merchantId, id);
      } catch (error) {
        if (error instanceof OnboardingError) throw new Refusal(404, 'not_found');
        throw error;
      }
      const revoked = (await listMerchantKeys(db, request.user.merchantId)).find((k) => k.id === id);
      await audit(request.ctx, 'key_revoked', request.user, `${revoked?.prefix ?? id}…`);
      seeOther(request.ctx, '/dashboard/developers?done=revoked');
    }),
  );

  router.post(
    '/dashboard/developers/keys/:id/roll',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const id = request.ctx.params.id ?? '';
      if (!UUID.test(id)) throw new Refusal(404, 'not_found');
      const expiresIn = Number(form.get('expires_in'));
      if (!ROLL_EXPIRIES.has(expiresIn)) throw new Refusal(400, 'bad_request');
      let rolled;
      try {
        rolled = await rollDashboardKey(db, request.user, id, expiresIn, deps.config.TEST_KEYS_PER_MERCHANT);
      } catch (error) {
        if (error instanceof TestKeyLimitReached) {
          await developers(request, { error: strings(request.lang).testKeyLimitText }, 409);
          return;
        }
        if (await refusedLiveKey(request, error)) return;
        // Another merchant's key is not found; a revoked or expired one cannot be rolled.
        if (error instanceof OnboardingError) throw new Refusal(404, 'not_found');
        throw error;
      }
      const detail = `${rolled.old_prefix}… → ${parseKey(rolled.key)!.prefix}…, old key until ${rolled.old_key_expires_at}`;
      await audit(request.ctx, 'key_rolled', request.user, detail);
      if (rolled.key.startsWith('sk_live_')) await liveDone(request, 'live_key', `rolled ${detail}`);
      await developers(request, { newKey: rolled.key, notice: strings(request.lang).keyRolledText }, 201);
    }),
  );

  // A live key's `refunds` scope (docs/API.md#key-scopes): granting it is a live action (a recent second
  // factor, recorded, the owner mailed); withdrawing it is recorded. Only an active live key of this merchant.
  router.post(
    '/dashboard/developers/keys/:id/refunds',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const id = request.ctx.params.id ?? '';
      if (!UUID.test(id)) throw new Refusal(404, 'not_found');
      const choice = form.get('refunds');
      if (choice !== 'grant' && choice !== 'withdraw') throw new Refusal(400, 'bad_request');
      const grant = choice === 'grant';
      // Password-only session: refused (recorded, the owner mailed); no recent second factor: to the step-up page.
      if (grant && !(await liveAllowed(request, 'refund_scope', '/dashboard/developers'))) return;
      let key;
      try {
        key = await setDashboardKeyRefunds(db, request.user, id, grant);
      } catch (error) {
        if (error instanceof StepUpNeeded) {
          stepUp(request, '/dashboard/developers');
          return;
        }
        // Another merchant's key, a test key, a revoked or expired one: nothing to grant.
        if (error instanceof OnboardingError) throw new Refusal(404, 'not_found');
        throw error;
      }
      const detail = `${key.prefix}…: refunds`;
      await audit(request.ctx, grant ? 'key_scope_granted' : 'key_scope_withdrawn', request.user, detail);
      if (grant) await liveDone(request, 'refund_scope', detail);
      seeOther(request.ctx, `/dashboard/developers?done=${grant ? 'refunds_granted' : 'refunds_withdrawn'}`);
    }),
  );

  // ZarinPal's and Zibal's values (docs/COMPAT.md#credentials): made (rolling the mode's earlier ones) and shown once, or revoked.
  const modeOf = (form: URLSearchParams) => {
    const mode = form.get('mode');
    if (mode !== 'test' && mode !== 'live') throw new Refusal(400, 'bad_request');
    return mode;
  };

  router.post(
    '/dashboard/developers/compat',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const mode = modeOf(form);
      const expiresIn = Number(form.get('expires_in'));
      if (!ROLL_EXPIRIES.has(expiresIn)) throw new Refusal(400, 'bad_request');
      let values;
      try {
        values = await issueDashboardCompatCredentials(db, request.user, mode, expiresIn);
      } catch (error) {
        if (await refusedLiveKey(request, error)) return;
        throw error;
      }
      await audit(request.ctx, 'compat_credentials_issued', request.user, `${mode}, earlier values for ${expiresIn} s`);
      // Answered here, not after a redirect: the values are shown this once and stored nowhere.
      await showDevelopers(kit, request, {}, 201, values);
    }),
  );

  router.post(
    '/dashboard/developers/compat/revoke',
    signedIn(async (request) => {
      const mode = modeOf(await readForm(request.ctx));
      const { revoked } = await revokeCompatCredentials(db, request.user.merchantId, mode);
      await audit(request.ctx, 'compat_credentials_revoked', request.user, `${mode}: ${revoked}`);
      seeOther(request.ctx, '/dashboard/developers?done=compat_revoked');
    }),
  );
}
