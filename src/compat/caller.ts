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
import { countPageAction } from '../http/rate-limit.ts';

export interface CompatRouteDeps {
  db: Db;
  config: Config;
}

/** The routes of one protocol: each a POST of a JSON body that names its credential. */
export function protocolRouter<Credential extends string>(
  deps: CompatRouteDeps,
  protocol: CompatProtocol,
  credentialField: Credential,
) {
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
      ctx.body = await handler(
        ctx.state.compatBody as Static<S> & Record<Credential, string>,
        ctx.state.auth as AuthState,
      );
    });
  }

  return { router, post };
}

/**
 * The customer's step a protocol names by its own identifier (ZarinPal's /pg/StartPay/{authority},
 * Zibal's /start/{trackId}): to the payment's hosted page, which checks everything a payment page does.
 * It needs no credential, so each lookup counts against the client address's public page actions
 * (PAGE_ACTIONS_PER_CLIENT_PER_MINUTE): 429 past them, before anything is looked up.
 */
export function customerStart(
  parameter: string,
  paymentIdOf: (identifier: string) => Promise<string | undefined> | string | undefined,
  unknown: string,
  deps: CompatRouteDeps,
): Middleware {
  const counter = rateCounter(deps.config, deps.db);
  return async (ctx) => {
    const refused = await countPageAction(counter, deps.config, ctx.ip);
    if (refused !== undefined) {
      ctx.set(refused.headers);
      ctx.status = 429;
      ctx.body = refused.message;
      return;
    }
    const id = await paymentIdOf(String((ctx.params as Record<string, string>)[parameter]));
    if (id === undefined) {
      ctx.status = 404;
      ctx.body = unknown;
      return;
    }
    ctx.redirect(`/pay/${id}`);
  };
}
