/**
 * Payment links (docs/PAYMENTS.md#payment-links): a page of the gateway's at
 * `/l/{slug}` where a customer pays a merchant with no server of its own. The
 * rules live here once: the amount (fixed, or a range the customer chooses
 * in), when a link may still take a payment, the fields it collects, and the
 * slug. The resource and its requests are TypeBox schemas, as every other's.
 */
import { Type, type Static } from '@sinclair/typebox';
import { KEY_MODES } from './merchant.ts';
import { FREE_TEXT_PATTERN, listOf, listQuery, Nullable, StringEnum, Timestamp, type AmountBounds } from './schema.ts';

/** A slug: ten characters of a lowercase alphabet without look-alikes (no 0/o, 1/l/i), easy to read aloud and type. */
export const SLUG_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const SLUG_LENGTH = 10;
export const SLUG_PATTERN = `^[${SLUG_ALPHABET}]{${SLUG_LENGTH}}$`;
const SLUG = new RegExp(SLUG_PATTERN);

/** The slug drawn from `bytes` (at least SLUG_LENGTH random bytes): each byte picks a letter; the small bias of the modulo is harmless for an unguessable-enough name. */
export function slugFromBytes(bytes: Uint8Array): string {
  if (bytes.length < SLUG_LENGTH) throw new Error(`a slug needs ${SLUG_LENGTH} random bytes`);
  let slug = '';
  for (let i = 0; i < SLUG_LENGTH; i++) slug += SLUG_ALPHABET[bytes[i]! % SLUG_ALPHABET.length];
  return slug;
}

export const isSlug = (text: string): boolean => SLUG.test(text);

/** The fields a link may ask the customer for, each off (absent), optional or required. */
export const COLLECTED_FIELDS = ['name', 'mobile', 'note'] as const;
export type CollectedField = (typeof COLLECTED_FIELDS)[number];
export const COLLECT_RULES = ['optional', 'required'] as const;
export type CollectRule = (typeof COLLECT_RULES)[number];
export type Collect = Partial<Record<CollectedField, CollectRule>>;

/** What a collected field may hold: a name, an Iranian mobile number, a short note. */
export const COLLECTED_LIMITS = { name: 100, note: 255 } as const;
export const MOBILE_PATTERN = '^09[0-9]{9}$';
const MOBILE = new RegExp(MOBILE_PATTERN);
const FREE_TEXT = new RegExp(FREE_TEXT_PATTERN);

export const MAX_PAYMENTS_LIMIT = 1_000_000;

const CollectSchema = Type.Object(
  Object.fromEntries(
    COLLECTED_FIELDS.map((field) => [
      field,
      Type.Optional(
        StringEnum(COLLECT_RULES, {
          description: `ask the customer for their ${field}: \`optional\` or \`required\`; absent: not asked`,
        }),
      ),
    ]),
  ),
  {
    additionalProperties: false,
    description:
      'the fields the link page asks the customer for; they land in the payment metadata as `link_name`, `link_mobile`, `link_note`',
  },
);

export const PaymentLinkSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'identifier of the link' }),
    slug: Type.String({ pattern: SLUG_PATTERN, description: "the link's name in its URL", examples: ['k7m2qr9xte'] }),
    url: Type.String({ format: 'uri', description: 'the page customers pay on: share this' }),
    qr_url: Type.String({ format: 'uri', description: 'an SVG QR code of `url`' }),
    mode: StringEnum(KEY_MODES, { description: 'the mode of the key that created it; its payments are of this mode' }),
    title: Type.String({ description: 'what is sold, the page heading' }),
    description: Type.String({ description: 'more about it, shown under the title' }),
    amount: Nullable(
      Type.Integer(),
      'the fixed amount in rials; null when the customer chooses within min_amount..max_amount',
    ),
    min_amount: Nullable(Type.Integer(), 'the least the customer may pay, in rials; null for a fixed amount'),
    max_amount: Nullable(Type.Integer(), 'the most the customer may pay, in rials; null for a fixed amount'),
    collect: CollectSchema,
    expires_at: Nullable(Timestamp('after this the link takes no payment'), 'null: never expires'),
    max_payments: Nullable(Type.Integer({ minimum: 1 }), 'how many payments the link takes; null: no limit'),
    payments_count: Type.Integer({
      description:
        'payments of the link that hold a place against max_payments now: every one it started, but those that failed, were canceled, expired or were reversed, which gave theirs back (docs/PAYMENTS.md#payment-links)',
    }),
    active: Type.Boolean({ description: 'false once deactivated' }),
    created_at: Timestamp('creation time'),
  },
  { additionalProperties: false },
);
export type PaymentLink = Static<typeof PaymentLinkSchema>;

export function createPaymentLinkRequestSchema(bounds: AmountBounds) {
  const amount = (description: string) =>
    Type.Optional(Type.Integer({ minimum: bounds.min, maximum: bounds.max, description, examples: [1_500_000] }));
  return Type.Object(
    {
      title: Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: FREE_TEXT_PATTERN,
        description: 'what is sold',
        examples: ['Handmade notebook'],
      }),
      description: Type.Optional(
        Type.String({ maxLength: 500, pattern: FREE_TEXT_PATTERN, description: 'more about it' }),
      ),
      amount: amount('a fixed amount in rials; give it, or min_amount and max_amount'),
      min_amount: amount('the least the customer may pay (with max_amount)'),
      max_amount: amount('the most the customer may pay (with min_amount)'),
      collect: Type.Optional(CollectSchema),
      expires_at: Type.Optional(
        Type.String({
          format: 'date-time',
          description: 'the link takes no payment after this (must be in the future)',
        }),
      ),
      max_payments: Type.Optional(
        Type.Integer({ minimum: 1, maximum: MAX_PAYMENTS_LIMIT, description: 'how many payments the link takes' }),
      ),
    },
    { additionalProperties: false },
  );
}
export type CreatePaymentLinkRequest = Static<ReturnType<typeof createPaymentLinkRequestSchema>>;

export const PaymentLinkResponseSchema = Type.Object(
  { payment_link: PaymentLinkSchema },
  { additionalProperties: false },
);
export const ListPaymentLinksQuerySchema = listQuery({});
export type ListPaymentLinksQuery = Static<typeof ListPaymentLinksQuerySchema>;
export const PaymentLinkListSchema = listOf(PaymentLinkSchema);

export interface Problem {
  path: string;
  message: string;
}

/** What the schema cannot judge of a new link: a fixed amount or a whole range (not both), the range in order, an expiry in the future. */
export function paymentLinkProblems(request: CreatePaymentLinkRequest, now: number): Problem[] {
  const problems: Problem[] = [];
  const { amount, min_amount: min, max_amount: max } = request;
  if (amount !== undefined && (min !== undefined || max !== undefined))
    problems.push({ path: 'amount', message: 'give a fixed amount or a range (min_amount, max_amount), not both' });
  if (amount === undefined && (min === undefined || max === undefined))
    problems.push({ path: 'amount', message: 'give a fixed amount, or both min_amount and max_amount' });
  if (min !== undefined && max !== undefined && min > max)
    problems.push({ path: 'min_amount', message: 'must not exceed max_amount' });
  if (request.expires_at !== undefined && !(Date.parse(request.expires_at) > now))
    problems.push({ path: 'expires_at', message: 'must be in the future' });
  return problems;
}

/**
 * A link's payment in one of these states gave its place under max_payments back: it ended with no
 * money kept (failed or canceled at the bank, expired unpaid, or reversed to the customer). Every
 * other payment of the link holds its place; so a customer who walks away frees it, and nobody can
 * use a link up by starting payments and abandoning them (docs/PAYMENTS.md#payment-links).
 */
export const LINK_PLACE_FREED_STATUSES = ['failed', 'canceled', 'expired', 'reversed'] as const;

/** A link's payment in one of these states is open: the customer may still pay, or the gateway has yet to verify it (bounded by LINK_OPEN_PAYMENTS_MAX). */
export const LINK_OPEN_STATUSES = ['created', 'pending', 'paid'] as const;

/** Why a link takes no payment now, or undefined when it does. */
export type LinkUnavailable = 'payment_link_inactive' | 'payment_link_expired' | 'payment_link_used_up';

export function linkUnavailability(
  link: Pick<PaymentLink, 'active' | 'expires_at' | 'max_payments' | 'payments_count'>,
  now: number,
): LinkUnavailable | undefined {
  if (!link.active) return 'payment_link_inactive';
  if (link.expires_at !== null && now >= Date.parse(link.expires_at)) return 'payment_link_expired';
  if (link.max_payments !== null && link.payments_count >= link.max_payments) return 'payment_link_used_up';
  return undefined;
}

/** The amount a customer pays on the link: the fixed one, or theirs if within the range; a problem otherwise. */
export function chosenAmount(
  link: Pick<PaymentLink, 'amount' | 'min_amount' | 'max_amount'>,
  offered: number | undefined,
): number | Problem {
  if (link.amount !== null) return link.amount;
  const min = link.min_amount ?? 0;
  const max = link.max_amount ?? 0;
  if (offered === undefined || !Number.isSafeInteger(offered))
    return { path: 'amount', message: 'enter an amount in rials' };
  if (offered < min || offered > max) return { path: 'amount', message: `must be between ${min} and ${max} rials` };
  return offered;
}

/** The customer's answers to the link's fields, as they go into the payment's metadata (`link_<field>`). */
export type CollectedAnswers = Partial<Record<CollectedField, string>>;

/** Checks the customer's answers against the link's `collect`: required ones given, each of its shape. Fields the link does not ask for are ignored. */
export function collectedProblems(collect: Collect, answers: CollectedAnswers): Problem[] {
  const problems: Problem[] = [];
  for (const field of COLLECTED_FIELDS) {
    const rule = collect[field];
    if (rule === undefined) continue;
    const value = (answers[field] ?? '').trim();
    if (value === '') {
      if (rule === 'required') problems.push({ path: field, message: 'is required' });
      continue;
    }
    if (field === 'mobile' && !MOBILE.test(value))
      problems.push({ path: field, message: 'must be a mobile number like 09121234567' });
    if (field !== 'mobile' && (value.length > COLLECTED_LIMITS[field] || !FREE_TEXT.test(value)))
      problems.push({ path: field, message: `must be plain text of at most ${COLLECTED_LIMITS[field]} characters` });
  }
  return problems;
}

/** The metadata a link's payment carries: the link's answers under `link_<field>`, only those given and asked for. */
export function collectedMetadata(collect: Collect, answers: CollectedAnswers): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const field of COLLECTED_FIELDS) {
    const value = (answers[field] ?? '').trim();
    if (collect[field] !== undefined && value !== '') metadata[`link_${field}`] = value;
  }
  return metadata;
}

/** The merchant_reference of a link's payment: the link's slug, so the merchant's list and reports group them. */
export const linkPaymentReference = (slug: string): string => `link-${slug}`;

const PERSIAN_AND_ARABIC_DIGITS = /[۰-۹٠-٩]/g;

/**
 * Rials as a customer types them on a phone: Persian or Arabic-Indic digits as well as Latin,
 * with thousands separators (`,`, `٬`, `،`) and spaces ignored. Undefined when it is not a whole number.
 */
export function amountFromText(text: string): number | undefined {
  const digits = text
    .replace(PERSIAN_AND_ARABIC_DIGITS, (d) => String(d.codePointAt(0)! - (d >= '۰' ? 0x06f0 : 0x0660)))
    .replace(/[\s,٬،]/g, '');
  if (!/^[0-9]{1,16}$/.test(digits)) return undefined;
  const amount = Number(digits);
  return Number.isSafeInteger(amount) ? amount : undefined;
}
