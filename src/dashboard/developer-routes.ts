/**
 * The developers page: the merchant's gateway and live mode, and its API
 * keys (make one, shown once; revoke; roll with a grace period for the old
 * key). Live keys wait for live mode and the documents it needs.
 */
import { createDashboardKey, LiveKeyRefused, liveKeyMissing, rollDashboardKey } from '../accounts/dashboard-keys.ts';
import { parseKey } from '../merchants/keys.ts';
import { OnboardingError } from '../merchants/merchants.ts';
import { listMerchantKeys, merchantSummary, revokeMerchantKey } from '../merchants/onboarding.ts';
import { strings } from './i18n.ts';
import { Refusal, UUID, type DashboardKit, type SignedInRequest } from './kit.ts';
import { developersPage } from './views.ts';

/** How long the old key keeps working after a roll: the choices the form offers (now, 1 h, 24 h, 7 days). */
const ROLL_EXPIRIES = new Set([0, 3_600, 86_400, 604_800]);

/** The developers page with what just happened (a new key, a notice, a refusal); the onboarding steps answer with it too. */
export async function showDevelopers({ deps, html }: DashboardKit, request: SignedInRequest, options: Parameters<typeof developersPage>[2] = {}, status = 200): Promise<void> {
  const summary = await merchantSummary(deps.db, request.user.merchantId);
  const keys = await listMerchantKeys(deps.db, request.user.merchantId);
  const missing = await liveKeyMissing(deps.db, request.user);
  html(request.ctx, developersPage(request.view('developers'), { ...summary, keys, liveKeyMissing: missing }, options), status);
}

export function developerPages(kit: DashboardKit): void {
  const { router, deps, signedIn, readForm, seeOther, audit } = kit;
  const { db } = deps;
  const developers = (request: SignedInRequest, options?: Parameters<typeof developersPage>[2], status?: number) => showDevelopers(kit, request, options, status);

  router.get(
    '/dashboard/developers',
    signedIn(async (request) => {
      const t = strings(request.lang);
      const done = request.ctx.query.done;
      const notice = done === 'gateway' ? t.gatewayRequestedText : done === 'revoked' ? t.keyRevokedText : done === 'live' ? t.liveActivatedText : undefined;
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
        key = await createDashboardKey(db, request.user, mode);
      } catch (error) {
        if (!(error instanceof LiveKeyRefused)) throw error;
        await developers(request, { refusedMissing: error.missing }, 409);
        return;
      }
      await audit(request.ctx, 'key_created', request.user, `${parseKey(key.key)!.prefix}…`);
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
        rolled = await rollDashboardKey(db, request.user, id, expiresIn);
      } catch (error) {
        if (error instanceof LiveKeyRefused) {
          await developers(request, { refusedMissing: error.missing }, 409);
          return;
        }
        // Another merchant's key is not found; a revoked or expired one cannot be rolled.
        if (error instanceof OnboardingError) throw new Refusal(404, 'not_found');
        throw error;
      }
      await audit(request.ctx, 'key_rolled', request.user, `${rolled.old_prefix}… → ${parseKey(rolled.key)!.prefix}…, old key until ${rolled.old_key_expires_at}`);
      await developers(request, { newKey: rolled.key, notice: strings(request.lang).keyRolledText }, 201);
    }),
  );
}
