/**
 * Zibal's v1 addresses on Dargah (docs/COMPAT.md#zibal): /v1/request, /v1/verify, /v1/inquiry, and
 * /start/{trackId}, which sends the customer to the payment's hosted page.
 */
import Router from '@koa/router';
import type { Logger } from '../logger.ts';
import { ZibalRequestSchema, ZibalTrackSchema } from '../domain/compat-schemas.ts';
import { ZIBAL_TRACK_ID_PATTERN } from '../domain/compat-protocols.ts';
import { paymentIdOfZibalTrackId } from '../payments/compat-records.ts';
import type { PaymentServiceDeps } from '../payments/service.ts';
import { customerStart, protocolRouter } from './caller.ts';
import { protocolErrors, type ProtocolErrors } from './protocol-errors.ts';
import { zibalInquiry, zibalRequest, zibalVerify } from './zibal.ts';

/** Zibal answers its refusals with HTTP 200 and a `result` code; a throttled request, an outage or a bug keep their status. */
export const ZIBAL_ERRORS: ProtocolErrors = {
  codes: {
    invalid_api_key: 102,
    live_mode_not_enabled: 103,
    callback_url_not_allowed: 106,
    callback_domain_unverified: 106,
    payment_not_found: 203,
    payment_not_paid: 202,
    payment_pending: 202,
    verify_deadline_passed: 202,
    rate_limited: -1,
  },
  // Zibal's "error": a body it cannot read, a field it has no code for, an outage (503) or a bug (500).
  fallback: -1,
  // callback_url: the name the payment service's own check gives a callbackUrl that is not an absolute URL.
  fieldCodes: { merchant: 102, amount: 105, callbackUrl: 106, callback_url: 106, trackId: 203 },
  status: (status) => (status === 429 || status >= 500 ? status : 200),
  body: (code, message) => ({ result: code, message }),
};

export const ZIBAL_API_PREFIX = '/v1';

export function zibalRoutes(deps: PaymentServiceDeps & { logger: Logger }): Router {
  const { router: api, post } = protocolRouter(deps, 'zibal', 'merchant');
  post('/request', ZibalRequestSchema, (body, caller) => zibalRequest(deps, caller, body), { createsPayment: true });
  post('/verify', ZibalTrackSchema, (body, caller) => zibalVerify(deps, caller, body));
  post('/inquiry', ZibalTrackSchema, (body, caller) => zibalInquiry(deps, caller, body));

  const router = new Router();
  // Only a trackId Zibal's /v1/request drew (or, on a Zibal payment made before those, its tracking
  // code): never the tracking code of a payment made any other way.
  const paymentIdOfTrackId = (trackId: string) =>
    ZIBAL_TRACK_ID_PATTERN.test(trackId) || /^[0-9]{12}$/.test(trackId)
      ? paymentIdOfZibalTrackId(deps.db, trackId)
      : undefined;
  router.get('/start/:trackId', customerStart('trackId', paymentIdOfTrackId, 'Invalid trackId.', deps));
  router.use(ZIBAL_API_PREFIX, protocolErrors(ZIBAL_ERRORS, deps.logger), api.routes(), api.allowedMethods({}));
  return router;
}
