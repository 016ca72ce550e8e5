/**
 * SEP's messages as Dargah reads them (docs/psps/sep.md): its result codes and the fields its page
 * sends back to us, as the conformance corpus (test/fixtures/psps/sep/) shows them. Pure code, no
 * network: the client (client.ts) and the return route share it.
 */
import type { BankCallback } from '../../domain/payment-workflow.ts';

/** SEP's result codes that matter here (ResultCode of VerifyTransaction and ReverseTransaction). */
export const RESULT = {
  OK: 0,
  /** "A repeated request": SEP already did this with this RefNum (docs/psps/sep.md). */
  DUPLICATE: 2,
  /** "The transaction is reversed" (one source): to a ReverseTransaction, the money is already back. */
  REVERSED: 5,
  /**
   * Not SEP's: the simulator's "delay in verification" (ask again later), a test control no
   * reference shows. A real SEP never answers it, so reading it costs nothing (docs/psps/sep.md).
   */
  IN_PROGRESS: 100,
  NOT_FOUND: -2,
  /** The verify came more than 30 minutes after the payment: SEP has reversed it by itself. */
  TOO_LATE: -6,
} as const;

/**
 * SEP's digital receipt (RefNum): Base64's alphabet, about 50 characters (the corpus's
 * return-ok.json; SEP's own code -10 says "RefNum is not Base64"). '-' and '_' are allowed too, for
 * the URL-safe variant no reference shows but nothing excludes.
 */
export const SEP_REF_NUM = /^[A-Za-z0-9+/=_-]{1,128}$/;
const TOKEN = /^[A-Za-z0-9_-]{8,64}$/;

/** A field by its name in any case: the references spell some differently (RRN and Rrn, State and state). */
function field(fields: Record<string, string>, name: string): string | undefined {
  if (Object.hasOwn(fields, name)) return fields[name];
  const lower = name.toLowerCase();
  const key = Object.keys(fields).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : fields[key];
}

/**
 * SEP's return to our route, normalized; checked for shape only (the workflow confirms everything
 * with SEP's verify). Two ways reach us (docs/psps/sep.md#the-return):
 *
 * - the integrations' form post of every field (State, Status, RefNum, ResNum, MID, TerminalId,
 *   RRN, TraceNo, Amount, SecurePan, HashedCardNumber): no Token;
 * - the guide's query with Token and RefNum only: no State (a RefNum says the customer paid, which
 *   only the verify can confirm) and no ResNum (the return address names the payment).
 *
 * ResNum is the payment's id: another than `paymentId`, when given, is not this payment's return.
 * A RefNum in a query whose '+' was decoded as a space has its '+' back: a RefNum has no spaces.
 */
export function sepCallback(fields: Record<string, string>, paymentId?: string): BankCallback | undefined {
  const refNum = (field(fields, 'RefNum') ?? '').replace(/ /g, '+');
  const givenState = field(fields, 'State');
  const state = givenState ?? (refNum === '' ? '' : 'OK');
  const resNum = field(fields, 'ResNum') ?? paymentId ?? '';
  const token = field(fields, 'Token') ?? '';
  if (
    !/^[A-Za-z]{1,40}$/.test(state) ||
    (refNum !== '' && !SEP_REF_NUM.test(refNum)) ||
    resNum === '' ||
    (token !== '' && !TOKEN.test(token))
  )
    return undefined;
  if (paymentId !== undefined && resNum !== paymentId) return undefined;
  if (state === 'OK' && refNum === '') return undefined;
  return { state, ref_num: refNum, res_num: resNum, token };
}
