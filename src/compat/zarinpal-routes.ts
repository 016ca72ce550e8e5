/**
 * ZarinPal's v4 addresses on Dargah (docs/COMPAT.md#zarinpal): the JSON endpoints under
 * /pg/v4/payment/, and /pg/StartPay/{authority}, which sends the customer to the payment's hosted
 * page. A merchant moving from ZarinPal changes only the host its code or plugin calls.
 */
import Router from '@koa/router';
import type { Logger } from '../logger.ts';
import { paymentIdOfAuthority } from '../domain/compat-protocols.ts';
import {
  ZarinpalAuthoritySchema,
  ZarinpalMerchantSchema,
  ZarinpalRequestSchema,
  ZarinpalVerifySchema,
} from '../domain/compat-schemas.ts';
import type { ErrorCode } from '../errors.ts';
import type { PaymentServiceDeps } from '../payments/service.ts';
import { customerStart, protocolRouter } from './caller.ts';
import { protocolErrors, type ProtocolErrors } from './protocol-errors.ts';
import { zarinpalInquiry, zarinpalRequest, zarinpalReverse, zarinpalUnverified, zarinpalVerify } from './zarinpal.ts';

/** ZarinPal's code for each of Dargah's refusals it can meet (the table of docs/COMPAT.md). */
const ZARINPAL_CODES: Partial<Record<ErrorCode, number>> = {
  validation_failed: -9,
  invalid_json: -9,
  invalid_request: -9,
  unsupported_media_type: -9,
  payload_too_large: -9,
  callback_url_not_allowed: -9,
  callback_domain_unverified: -9,
  invalid_api_key: -10,
  live_mode_not_enabled: -11,
  insufficient_scope: -62,
  rate_limited: -12,
  amount_mismatch: -50,
  payment_not_paid: -51,
  payment_pending: -51,
  verify_deadline_passed: -51,
  payment_not_found: -54,
  payment_not_reversible: -61,
  refund_exceeds_amount: -61,
  payment_not_refundable: -61,
};

export const ZARINPAL_ERRORS: ProtocolErrors = {
  codes: ZARINPAL_CODES,
  // ZarinPal's "Oops!! please contact support team": a dependency failure (503) or a bug (500).
  fallback: -52,
  body: (code, message, details) => ({
    data: [],
    errors: { code, message, validations: details.map((d) => ({ [d.path]: d.message })) },
  }),
};

export const ZARINPAL_API_PREFIX = '/pg/v4/payment';

export function zarinpalRoutes(deps: PaymentServiceDeps & { logger: Logger }): Router {
  const { router: api, post } = protocolRouter(deps, 'zarinpal', 'merchant_id');
  post('/request.json', ZarinpalRequestSchema, (body, caller) => zarinpalRequest(deps, caller, body), {
    createsPayment: true,
  });
  post('/verify.json', ZarinpalVerifySchema, (body, caller) => zarinpalVerify(deps, caller, body));
  post('/unVerified.json', ZarinpalMerchantSchema, (_body, caller) => zarinpalUnverified(deps, caller));
  post('/inquiry.json', ZarinpalAuthoritySchema, (body, caller) => zarinpalInquiry(deps, caller, body));
  post('/reverse.json', ZarinpalAuthoritySchema, (body, caller) => zarinpalReverse(deps, caller, body));

  const router = new Router();
  router.get('/pg/StartPay/:authority', customerStart('authority', paymentIdOfAuthority, 'Invalid authority.', deps));
  router.use(ZARINPAL_API_PREFIX, protocolErrors(ZARINPAL_ERRORS, deps.logger), api.routes(), api.allowedMethods({}));
  return router;
}
