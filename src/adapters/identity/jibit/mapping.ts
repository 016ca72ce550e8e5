/**
 * Jibit's identity service ("Identicator", `https://napi.jibit.ir/ide`) as Dargah reads it
 * (docs/identity.md): the paths, the answers of the card-to-IBAN and IBAN inquiries, the error codes
 * and what each is to Dargah, as the conformance corpus (test/fixtures/identity/jibit/) shows them.
 * Pure code, no network: the client (client.ts) uses it, and the simulator's shape test holds it to
 * the corpus.
 */
import type { CardAccount, IbanAccount } from '../contract.ts';

/** The calls under the configured base address (Jibit's is `https://napi.jibit.ir/ide`). */
export const JIBIT_TOKEN_PATH = '/v1/tokens/generate';
export const JIBIT_CARDS_PATH = '/v1/cards';
export const JIBIT_IBANS_PATH = '/v1/ibans';

/**
 * Codes of Jibit's error body (`{code, message}`) that say the inquiry could not be made now, not that
 * the card or IBAN is wrong: the card's bank or Jibit's upstream does not answer, or our account at
 * Jibit is out of quota or credit. IdentityUnavailableError: the customer may try again later, and
 * the operator is the one to act (docs/identity.md#error-codes).
 */
export const JIBIT_UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  'providers.not_available',
  'card.source_bank_is_not_active',
  'card.provider_is_not_active',
  'daily_limit.reached',
  'balance.not_enough',
  'server.error',
]);

/** The code of a token Jibit does not take (expired, revoked): a new token is asked for, once. */
export const JIBIT_FORBIDDEN = 'forbidden';

/** Dargah's own codes, for input refused before any call (Jibit is asked nothing). */
export const IDENTITY_INPUT_CODE = {
  CARD: 'invalid_card_number',
  IBAN: 'invalid_iban',
} as const;

/** A card number the provider may be asked about: 16 digits. */
export const CARD_NUMBER = /^[0-9]{16}$/;
/** A Sheba IBAN the provider may be asked about: IR and 24 digits. */
export const SHEBA = /^IR[0-9]{24}$/;

/** `603799******7893`: the one way a card is said in an error or a log. */
export function maskCard(card: string): string {
  return /^[0-9]{16}$/.test(card) ? `${card.slice(0, 6)}******${card.slice(-4)}` : 'a card number';
}

/** `IR06…0001`: an IBAN as an error says it. */
export function maskIban(iban: string): string {
  return SHEBA.test(iban) ? `${iban.slice(0, 4)}…${iban.slice(-4)}` : 'an IBAN';
}

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/**
 * The owners' names of an `ibanInfo` (`owners: [{firstName, lastName}]`), each "first last", joined
 * by the Persian comma for a joint account (docs/identity.md: no reference shows how a joint account
 * is named, nor which owner comes first). Undefined when no owner has a name.
 */
export function ownerName(ibanInfo: Record<string, unknown>): string | undefined {
  const owners = Array.isArray(ibanInfo.owners) ? ibanInfo.owners : [];
  const names = owners
    .map((o) => record(o))
    .filter((o): o is Record<string, unknown> => o !== undefined)
    .map((o) => [text(o.firstName), text(o.lastName)].filter((p) => p !== undefined).join(' '))
    .filter((n) => n !== '');
  return names.length === 0 ? undefined : names.join('، ');
}

/**
 * An account's status (`ibanInfo.status`) as IbanAccount's `active`: ACTIVE true; BLOCK_WITH_DEPOSIT
 * and BLOCK_WITHOUT_DEPOSIT false (blocked); IDLE (a dormant account), UNKNOWN or none: null, the
 * provider does not say whether a transfer there lands (docs/identity.md#what-no-reference-settles).
 */
export function accountActive(status: unknown): boolean | null {
  if (status === 'ACTIVE') return true;
  if (status === 'BLOCK_WITH_DEPOSIT' || status === 'BLOCK_WITHOUT_DEPOSIT') return false;
  return null;
}

/** What an answer of Jibit is to Dargah: an account, a refusal with Jibit's code, or nothing readable. */
export type JibitReading<T> =
  { kind: 'account'; account: T } | { kind: 'refused'; code: string; message: string } | { kind: 'unreadable' };

/** A 4xx body `{code, message}`: Jibit's refusal, its code as given. */
export function readError(body: unknown): { code: string; message: string } | undefined {
  const b = record(body);
  const code = text(b?.code);
  if (code === undefined) return undefined;
  return { code, message: text(b?.message) ?? code };
}

/**
 * The answer of `GET /v1/cards?number=…&iban=true`: `{number, type, ibanInfo: {bank, depositNumber,
 * iban, status, owners}}`. An account only with a valid-looking IBAN and an owner's name, and only for
 * the card asked about (`number`, when the answer carries one); otherwise unreadable (treated as the
 * provider unavailable, never as an account).
 */
export function readCardAnswer(body: unknown, cardNumber: string): JibitReading<CardAccount> {
  const b = record(body);
  const info = record(b?.ibanInfo);
  if (b === undefined || info === undefined) return { kind: 'unreadable' };
  const number = text(b.number);
  if (number !== undefined && number !== cardNumber) return { kind: 'unreadable' };
  const iban = text(info.iban)?.toUpperCase();
  const owner = ownerName(info);
  if (iban === undefined || !SHEBA.test(iban) || owner === undefined) return { kind: 'unreadable' };
  return { kind: 'account', account: { iban, owner_name: owner, bank: text(info.bank) ?? null } };
}

/**
 * The answer of `GET /v1/ibans?value=IR…`: `{value, ibanInfo: {bank, depositNumber, iban, status,
 * owners}}`. An account only for the IBAN asked about and with an owner's name.
 */
export function readIbanAnswer(body: unknown, iban: string): JibitReading<IbanAccount> {
  const b = record(body);
  const info = record(b?.ibanInfo);
  if (b === undefined || info === undefined) return { kind: 'unreadable' };
  const value = text(b.value)?.toUpperCase() ?? text(info.iban)?.toUpperCase();
  if (value !== undefined && value !== iban) return { kind: 'unreadable' };
  const owner = ownerName(info);
  if (owner === undefined) return { kind: 'unreadable' };
  return {
    kind: 'account',
    account: { owner_name: owner, bank: text(info.bank) ?? null, active: accountActive(info.status) },
  };
}
