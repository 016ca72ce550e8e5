/**
 * A compatible protocol's request: its body is read and checked first (the credential is a field
 * of it, not a header), then the credential authenticates the caller exactly as an API key does
 * (src/merchants/compat-credentials.ts), then the API key's rate limits count it (one budget per merchant
 * and mode for every credential of both protocols), then the handler
 * answers with the protocol's body.
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Static, TSchema } from '@sinclair/typebox';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { CompatProtocol } from '../domain/compat-protocols.ts';
import type { AuthState } from '../domain/merchant.ts';
import { bodyValidator } from '../http/validation.ts';
import { jsonBody } from '../api/middleware/body.ts';
import { keyRateLimit, rateCounter, testPaymentQuota } from '../api/middleware/rate-limit.ts';
import { authenticateCompatCredential } from '../merchants/compat-credentials.ts';

export interface CompatRouteDeps {
  db: Db;
  config: Config;
}

/** The routes of one protocol: each a POST of a JSON body that names its credential. */
export function protocolRouter<Credential extends string>(deps: CompatRouteDeps, protocol: CompatProtocol, credentialField: Credential) {
  const router = new Router();
  const counter = rateCounter(deps.config, deps.db);
  // One budget per merchant and mode, shared by its credentials of both protocols: a merchant holds
  // up to two working pairs (src/merchants/compat-credentials.ts), and none of them adds requests.
  const perMerchantMode = keyRateLimit(deps.config, counter, (auth) => `compat:${auth.merchant.id}:${auth.mode}`);
  const testPayments = testPaymentQuota(deps.config, counter);
  router.use(jsonBody(deps.config.BODY_LIMIT_BYTES));

  function post<S extends TSchema>(
    path: string,
    schema: S,
    handler: (body: Static<S> & Record<Credential, string>, caller: AuthState) => Promise<unknown>,
    options: { createsPayment?: boolean } = {},
  ): void {
    const validate = bodyValidator(schema);
    const authenticate: Middleware = async (ctx, next) => {
      const body = validate(ctx.request.body) as Static<S> & Record<Credential, string>;
      ctx.state.compatBody = body;
      ctx.state.auth = await authenticateCompatCredential(deps.db, protocol, body[credentialField]);
      await next();
    };
    const limits = options.createsPayment === true ? [perMerchantMode, testPayments] : [perMerchantMode];
    router.post(path, authenticate, ...limits, async (ctx) => {
      ctx.body = await handler(ctx.state.compatBody as Static<S> & Record<Credential, string>, ctx.state.auth as AuthState);
    });
  }

  return { router, post };
}

/**
 * The customer's step a protocol names by its own identifier (ZarinPal's /pg/StartPay/{authority},
 * Zibal's /start/{trackId}): to the payment's hosted page, which checks everything a payment page does.
 */
export function customerStart(parameter: string, paymentIdOf: (identifier: string) => Promise<string | undefined> | string | undefined, unknown: string): Middleware {
  return async (ctx) => {
    const id = await paymentIdOf(String((ctx.params as Record<string, string>)[parameter]));
    if (id === undefined) {
      ctx.status = 404;
      ctx.body = unknown;
      return;
    }
    ctx.redirect(`/pay/${id}`);
  };
}
