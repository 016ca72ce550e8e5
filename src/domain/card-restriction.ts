/**
 * Who may pay a payment (docs/PAYMENTS.md#who-may-pay-cards-and-national-code):
 * the merchant may name the cards (`allowed_cards`) and the national code
 * (`national_code`) of the account holder. Pure code: the checks of a card
 * number (Luhn) and of an Iranian national code (its check digit), their
 * masks, and which PSPs can tell the gateway the card a payment was paid with.
 * The keyed hashes the gateway stores and compares need Node's crypto and live
 * in src/psps/card-hash.ts.
 */
import { PSP_NAMES, PSP_PROFILES } from '../psps/profiles.ts';

/** At most this many cards may be named on one payment. */
export const MAX_ALLOWED_CARDS = 5;
/** A card number as a payment names it: 16 digits (Shaparak's cards). */
export const CARD_NUMBER_PATTERN = '^[0-9]{16}$';
/** An Iranian national code (کد ملی): 10 digits, the last a check digit. */
export const NATIONAL_CODE_PATTERN = '^[0-9]{10}$';
/** A national code as the payment resource shows it: its first three and last two digits. */
export const MASKED_NATIONAL_CODE_PATTERN = '^[0-9]{3}\\*{5}[0-9]{2}$';

/** Whether `digits` (digits only) passes the Luhn check every card number carries in its last digit. */
export function isLuhnValid(digits: string): boolean {
  if (!/^[0-9]{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Whether `code` is a well-formed Iranian national code: ten digits whose last is the check digit
 * of the first nine (their sum weighted 10 down to 2, modulo 11: below 2 it is the remainder, else
 * 11 minus it). Ten equal digits pass that sum but are issued to nobody, so they are refused.
 */
export function isNationalCodeValid(code: string): boolean {
  if (!new RegExp(NATIONAL_CODE_PATTERN).test(code) || /^(\d)\1{9}$/.test(code)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(code[i]) * (10 - i);
  const remainder = sum % 11;
  const check = Number(code[9]);
  return remainder < 2 ? check === remainder : check === 11 - remainder;
}

/** `049*****99`: a national code as the resource, the page and events show it. */
export function maskNationalCode(code: string): string {
  return `${code.slice(0, 3)}*****${code.slice(-2)}`;
}

/** A problem with a payer restriction of a create request: the field's path (`allowed_cards.1`) and why, never the value. */
export interface RestrictionProblem {
  path: string;
  message: string;
}

/**
 * What the schema cannot check of a create request's restriction: each card's Luhn digit and the
 * national code's check digit. The shapes (16 and 10 digits, at most five distinct cards) are the
 * schema's (payment-schemas.ts).
 */
export function restrictionProblems(request: {
  allowed_cards?: readonly string[];
  national_code?: string;
}): RestrictionProblem[] {
  const problems: RestrictionProblem[] = [];
  (request.allowed_cards ?? []).forEach((card, i) => {
    if (!isLuhnValid(card))
      problems.push({ path: `allowed_cards.${i}`, message: 'is not a valid card number (its check digit is wrong)' });
  });
  if (request.national_code !== undefined && !isNationalCodeValid(request.national_code)) {
    problems.push({ path: 'national_code', message: 'is not a valid national code (its check digit is wrong)' });
  }
  return problems;
}

/**
 * The PSPs whose confirmation (server to server) names the card a payment was paid with, so the
 * gateway can hold it against the payment's allowed cards: those whose profile declares
 * `namesCardAtVerify` (SEP's verify answers HashedPan; Mellat's a result code alone). A payment
 * restricted to cards is never routed to the others.
 */
export const PSPS_REPORTING_CARD: readonly string[] = PSP_NAMES.filter((psp) => PSP_PROFILES[psp].namesCardAtVerify);

/** Whether a payment restricted to cards may be sent to PSP `psp`: only where its confirmation names the card. */
export function pspCanEnforceCards(psp: string): boolean {
  return PSPS_REPORTING_CARD.includes(psp);
}
