/**
 * The operator's direct debit commands (docs/OPERATIONS.md#mandates-and-subscriptions): list and show
 * mandates and subscriptions, and cancel a subscription. They call the API's own services
 * (src/direct-debit/), so a list is what the merchant's key would list and a cancel goes through the
 * subscription's workflow exactly as the merchant's does. A mandate's cancel is left to the merchant
 * (the API): it ends a customer's contract at the bank.
 */
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { listMandates, mandateForOperator } from '../direct-debit/mandates.ts';
import { cancelSubscriptionById, listSubscriptions, subscriptionForOperator } from '../direct-debit/subscriptions.ts';
import type { Tenant } from '../domain/merchant.ts';
import { required, UsageError, type Command, type Flags } from './onboarding-commands.ts';

const LIST_LIMIT_MAX = 100;

/** The merchant and mode a list is of: the operator names them as the merchant's key would. */
function tenantOf(flags: Flags): Tenant {
  const mode = flags.mode ?? 'live';
  if (mode !== 'test' && mode !== 'live') throw new UsageError('--mode must be test or live');
  return { merchant: { id: required(flags, 'merchant') }, mode };
}

/** The API's page bounds: --limit 1 to 100 (20 when absent), --cursor as a page's next_cursor gave it. */
function pageOf(flags: Flags): { limit?: number; cursor?: string } {
  const page: { limit?: number; cursor?: string } = {};
  if (typeof flags.limit === 'string') {
    const limit = Number(flags.limit);
    if (!/^[0-9]{1,3}$/.test(flags.limit) || limit < 1 || limit > LIST_LIMIT_MAX)
      throw new UsageError(`--limit must be a whole number from 1 to ${LIST_LIMIT_MAX}`);
    page.limit = limit;
  }
  if (typeof flags.cursor === 'string') page.cursor = flags.cursor;
  return page;
}

export const DIRECT_DEBIT_COMMANDS: Record<string, Command> = {
  'mandates list': async (db, _config, flags) => listMandates(db, tenantOf(flags), pageOf(flags)),
  'mandates show': async (db, config, flags) => mandateForOperator({ db, config }, required(flags, 'id')),
  'subscriptions list': async (db, config, flags) => listSubscriptions({ db, config }, tenantOf(flags), pageOf(flags)),
  'subscriptions show': async (db, config, flags) => subscriptionForOperator({ db, config }, required(flags, 'id')),
  // At once unless --at-period-end; a canceled subscription answers as it is (docs/SUBSCRIPTIONS.md#subscriptions).
  'subscriptions cancel': async (db: Db, config: Config, flags, services) => ({
    subscription: await cancelSubscriptionById(
      { db, config, temporal: await services.temporal() },
      required(flags, 'id'),
      flags['at-period-end'] === true,
    ),
  }),
};

/** The commands whose id comes after the verb (`mandates show <id>`). */
export const DIRECT_DEBIT_ARGUMENTS: Record<string, string> = {
  'mandates show': 'id',
  'subscriptions show': 'id',
  'subscriptions cancel': 'id',
};

export const DIRECT_DEBIT_OPTIONS = {
  limit: { type: 'string' },
  cursor: { type: 'string' },
  'at-period-end': { type: 'boolean' },
} as const;

type Row = Record<string, unknown>;
const str = (v: unknown) =>
  v === null || v === undefined ? '-' : typeof v === 'object' ? JSON.stringify(v) : `${v as string | number}`;
const eventLines = (events: Row[]) => [
  `events (${events.length}):`,
  ...events.map((e) => `  ${str(e.created_at)} ${str(e.type)} ${str(e.id)}`),
];
const subscriptionLine = (s: Row) =>
  `subscription ${str(s.id)} (${str(s.mode)}): ${str(s.status)}${s.cancel_reason === null ? '' : ` (${str(s.cancel_reason)})`}, ${str(s.amount)} rials, period ${str(s.current_period)} to ${str(s.current_period_end)}${s.cancel_at_period_end === true ? ', canceled at period end' : ''}`;
const mandateLine = (m: Row) =>
  `mandate ${str(m.id)} (${str(m.mode)}, ${str(m.provider)}): ${str(m.status)}${m.failure_code === null ? '' : ` (${str(m.failure_code)})`}, at most ${str(m.max_amount)} rials, ${str(m.max_daily_count)}/day, ${str(m.max_monthly_count)}/month, expires ${str(m.expires_at)}, bank ${m.bank === null || m.bank === undefined ? '-' : `${str((m.bank as Row).name)} (${str((m.bank as Row).code)})`}`;
const pageLines = (page: Row, line: (r: Row) => string) => [
  ...(page.data as Row[]).map(line),
  page.has_more === true
    ? `more: --cursor ${str(page.next_cursor)}`
    : `(${(page.data as Row[]).length} shown, no more)`,
];

/** The terminal's view of each command (--json prints the object itself). */
export const DIRECT_DEBIT_TEXT: Record<string, (result: Row) => Promise<string>> = {
  'mandates list': async (page) => pageLines(page, mandateLine).join('\n'),
  'subscriptions list': async (page) => pageLines(page, subscriptionLine).join('\n'),
  'mandates show': async (view) => {
    const m = view.mandate as Row;
    const subscriptions = view.subscriptions as Row[];
    return [
      mandateLine(m),
      `  merchant ${str(m.merchant_id)}, mobile ${str(m.mobile)}, reference ${str(m.reference)}`,
      `  created ${str(m.created_at)}, activated ${str(m.activated_at)}, ended ${str(m.ended_at)}`,
      `subscriptions (${subscriptions.length}):`,
      ...subscriptions.map((s) => `  ${subscriptionLine(s)}`),
      ...eventLines(view.events as Row[]),
    ].join('\n');
  },
  'subscriptions show': async (view) => {
    const s = view.subscription as Row;
    const charges = view.charges as Row[];
    return [
      subscriptionLine(s),
      `  merchant ${str(s.merchant_id)}, plan ${str(s.plan_id)}, mandate ${str(s.mandate_id)}`,
      `  created ${str(s.created_at)}, canceled ${str(s.canceled_at)}, failed attempts ${str(s.failed_attempts)}`,
      `  customer page ${str(s.customer_url)}`,
      `charges (${charges.length}):`,
      ...charges.map(
        (c) =>
          `  ${str(c.created_at)} ${str(c.key)}: debit ${str(c.debit_status)}, payment ${str(c.payment_id)} ${str(c.payment_status)}, ${str(c.amount)} rials`,
      ),
      ...eventLines(view.events as Row[]),
    ].join('\n');
  },
  'subscriptions cancel': async (result) => subscriptionLine(result.subscription as Row),
};
