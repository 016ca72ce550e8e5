/**
 * The operator CLI: `npm run --silent cli -- <noun> <verb> [--flags] [--json]`.
 * With --json it prints one JSON object on stdout and nothing else; a refused
 * step exits non-zero with a one-line reason on stderr (docs/API.md#operator-cli-onboarding-keys-and-fees).
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { createDatabase, type Db } from '../db/database.ts';
import { mysqlErrorCode } from '../db/errors.ts';
import { OnboardingError } from '../merchants/merchants.ts';
import { revokeKey, rollKey, setFees } from '../merchants/onboarding.ts';
import { KEY_COMMANDS, KEY_OPTIONS } from './key-commands.ts';
import { issueCompatCredentials, revokeCompatCredentials } from '../merchants/compat-credentials.ts';
import { DocumentsInvalid } from '../merchants/documents.ts';
import { OnboardingRefused } from '../domain/onboarding.ts';
import { connectTemporal, type TemporalClient } from '../temporal/client.ts';
import { isTemporalUnavailable } from '../temporal/call.ts';
import {
  ONBOARDING_COMMANDS,
  ONBOARDING_OPTIONS,
  required,
  UsageError,
  type CliServices,
  type Command,
  type Flags,
} from './onboarding-commands.ts';
import { checkLedger } from '../ledger/check.ts';
import { PSP_COMMANDS, PSP_OPTIONS } from './psp-commands.ts';
import { BANK_SIM_COMMANDS, BANK_SIM_OPTIONS } from './bank-sim-commands.ts';
import { RECONCILE_COMMANDS, RECONCILE_OPTIONS, RECONCILE_TEXT } from './reconcile-commands.ts';
import {
  DIRECT_DEBIT_ARGUMENTS,
  DIRECT_DEBIT_COMMANDS,
  DIRECT_DEBIT_OPTIONS,
  DIRECT_DEBIT_TEXT,
} from './direct-debit-commands.ts';
import { stuckRecords } from '../db/stuck.ts';
import { heldLateReturnsBefore } from '../db/late-returns.ts';
import {
  retryBeneficiaryPayouts,
  retryRefusedTransfers,
  runSettlementNow,
  setSettlementIban,
} from '../settlements/service.ts';
import { beneficiariesToReview, decideBeneficiary, revokeBeneficiary } from '../payments/splits.ts';
import { setOperatorNetworkAllowed } from '../webhooks/service.ts';
import { identityProviders } from '../adapters/identity/identity-provider.ts';
import { decideHeldRefund, refundApprovals } from '../refunds/approvals.ts';

export { UsageError };
/** Loaded only by the command that uses it: it brings the Temporal client, which the other commands do without. */
const paymentsShow = () => import('./payments-show.ts');

/** A whole number of the flag's unit (rials, seconds, basis points). */
function wholeNumber(flags: Flags, name: string): number {
  const text = required(flags, name);
  const value = Number(text);
  if (!/^[0-9]{1,15}$/.test(text) || !Number.isSafeInteger(value))
    throw new UsageError(`--${name} must be a whole number (got ${JSON.stringify(text)})`);
  return value;
}

export const COMMANDS: Record<string, Command> = {
  ...ONBOARDING_COMMANDS,
  ...PSP_COMMANDS,
  ...BANK_SIM_COMMANDS,
  ...RECONCILE_COMMANDS,
  ...DIRECT_DEBIT_COMMANDS, // mandates list/show, subscriptions list/show/cancel
  ...KEY_COMMANDS, // keys create (with --scope), keys scope, keys list
  'keys revoke': (db, _config, flags) => revokeKey(db, required(flags, 'key')),
  'keys roll': (db, config, flags) =>
    rollKey(db, required(flags, 'key'), wholeNumber(flags, 'expires-in'), config.TEST_KEYS_PER_MERCHANT),
  // ZarinPal's merchant_id and Zibal's merchant for a mode, shown once; earlier ones expire after --expires-in (default at once).
  'compat credentials': async (db, _config, flags) => {
    const grace = flags['expires-in'] === undefined ? 0 : wholeNumber(flags, 'expires-in');
    const { zarinpal_merchant_id, zibal_merchant } = await issueCompatCredentials(
      db,
      required(flags, 'merchant'),
      required(flags, 'mode'),
      grace,
    );
    return { zarinpal_merchant_id, zibal_merchant };
  },
  'compat revoke': (db, _config, flags) =>
    revokeCompatCredentials(db, required(flags, 'merchant'), required(flags, 'mode')),
  'fees set': (db, _config, flags) =>
    setFees(db, required(flags, 'merchant'), {
      bps: wholeNumber(flags, 'bps'),
      min: wholeNumber(flags, 'min'),
      max: wholeNumber(flags, 'max'),
    }),
  // Exits 1 when an invariant is broken (the result's `ok` is false). `--merchant a,b`: invariants 2 and 3 for
  // those merchants only (an operator looking into one merchant; 1 always covers every posting).
  'ledger check': async (db, _config, flags) => ({
    ...(await checkLedger(
      db,
      flags.merchant === undefined
        ? {}
        : {
            merchantIds: String(flags.merchant)
              .split(',')
              .filter((id) => id !== ''),
          },
    )),
  }),
  'merchants set-iban': (db, _config, flags) =>
    setSettlementIban(db, required(flags, 'merchant'), required(flags, 'iban')),
  // The merchants whose webhook receivers may sit on WEBHOOK_ALLOWED_NETWORKS (docs/WEBHOOKS.md#receivers-on-the-operators-network).
  'merchants allow-operator-network': (db, config, flags) =>
    setOperatorNetworkAllowed(db, config, required(flags, 'merchant'), true),
  'merchants disallow-operator-network': (db, config, flags) =>
    setOperatorNetworkAllowed(db, config, required(flags, 'merchant'), false),
  // Split settlement's beneficiaries (docs/PAYMENTS.md#split-settlement): the merchant registers, the operator decides.
  'beneficiaries list': (db, _config, flags) =>
    beneficiariesToReview(db, typeof flags.status === 'string' ? flags.status : undefined),
  'beneficiaries approve': (db, _config, flags) => decideBeneficiary(db, required(flags, 'id'), { status: 'approved' }),
  'beneficiaries reject': (db, _config, flags) =>
    decideBeneficiary(db, required(flags, 'id'), { status: 'rejected', reason: required(flags, 'reason') }),
  // An approved one withdrawn: no later split may name it (docs/PAYMENTS.md#split-settlement).
  'beneficiaries revoke': (db, _config, flags) =>
    revokeBeneficiary(db, required(flags, 'id'), required(flags, 'reason')),
  'settlements run': async (_db, _config, _flags, services) => runSettlementNow(await services.temporal()),
  // Every transfer of the settlement the bank refused, the beneficiaries' and the merchant's, or only --beneficiary's
  // (docs/LEDGER.md#split-settlement).
  'settlements retry': async (db, config, flags, services) =>
    retryRefusedTransfers(
      db,
      await services.temporal(),
      config,
      required(flags, 'id'),
      typeof flags.beneficiary === 'string' ? flags.beneficiary : undefined,
    ),
  // The beneficiary transfers alone (kept for scripts written before `settlements retry` covered them): all, or --beneficiary's.
  'settlements retry-beneficiaries': async (db, config, flags, services) =>
    retryBeneficiaryPayouts(
      db,
      await services.temporal(),
      config,
      required(flags, 'id'),
      typeof flags.beneficiary === 'string' ? flags.beneficiary : undefined,
    ),
  // Refunds held for the operator (docs/PAYMENTS.md#refund-states): a typed IBAN, or a refund the merchant's balance does not cover.
  'refunds approvals': (db, config) => refundApprovals(db, identityProviders(config)),
  'refunds approve': async (db, config, flags, services) => ({
    refund: await decideHeldRefund(db, await services.temporal(), config, required(flags, 'id'), {
      decision: 'approve',
    }),
  }),
  'refunds reject': async (db, config, flags, services) => ({
    refund: await decideHeldRefund(db, await services.temporal(), config, required(flags, 'id'), {
      decision: 'reject',
      reason: required(flags, 'reason'),
    }),
  }),
  'payments show': async (db, config, flags) => (await paymentsShow()).showPayment(db, config, required(flags, 'id')),
  // Every record past the bound of its waiting state, with its age and why (docs/RELIABILITY.md#waiting-states).
  stuck: async (db, config) => {
    const records = await stuckRecords(db, config);
    // Paid returns for ended payments whose reversal the PSP refused: money held at the PSP (docs/BANK.md#a-paid-return-for-an-ended-payment).
    const held = await heldLateReturnsBefore(db, new Date(), 1000);
    return { count: records.length, records, late_returns_held_at_psp: held };
  },
};

/** Commands that take one positional argument after the verb, and the flag it fills (`payments show <id>`). */
const ARGUMENTS: Record<string, string> = { 'payments show': 'id', ...DIRECT_DEBIT_ARGUMENTS };
/** Commands whose human output is more than `key: value` lines. */
const TEXT: Record<string, (result: Record<string, unknown>) => Promise<string>> = {
  'payments show': async (view) => (await paymentsShow()).paymentViewText(view),
  ...RECONCILE_TEXT,
  ...DIRECT_DEBIT_TEXT,
};

const OPTIONS = {
  json: { type: 'boolean' },
  name: { type: 'string' },
  domain: { type: 'string' },
  merchant: { type: 'string' },
  mode: { type: 'string' },
  key: { type: 'string' },
  'expires-in': { type: 'string' },
  bps: { type: 'string' },
  min: { type: 'string' },
  max: { type: 'string' },
  ...ONBOARDING_OPTIONS,
  ...PSP_OPTIONS,
  ...BANK_SIM_OPTIONS,
  ...RECONCILE_OPTIONS,
  ...DIRECT_DEBIT_OPTIONS,
  ...KEY_OPTIONS,
  id: { type: 'string' },
  beneficiary: { type: 'string' },
} as const;

function human(result: Record<string, unknown>): string {
  return Object.entries(result)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('\n');
}

async function main(argv: string[]): Promise<number> {
  let db: Db | undefined;
  let temporal: Promise<TemporalClient> | undefined;
  try {
    const { positionals, values } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    // A command is its noun and verb (`keys create`), or a noun alone (`stuck`).
    const name =
      COMMANDS[positionals[0] ?? ''] === undefined ? positionals.slice(0, 2).join(' ') : (positionals[0] ?? '');
    const command = COMMANDS[name];
    const argument = ARGUMENTS[name];
    if (command === undefined || positionals.length !== name.split(' ').length + (argument === undefined ? 0 : 1)) {
      throw new UsageError(`unknown command "${positionals.join(' ')}"; commands: ${Object.keys(COMMANDS).join(', ')}`);
    }
    const config = loadConfig();
    db = createDatabase(config.DATABASE_URL, { poolSize: 2 }).db;
    const services: CliServices = { temporal: async () => (await (temporal ??= connectTemporal(config))).client };
    const result = await command(
      db,
      config,
      argument === undefined ? values : { ...values, [argument]: positionals[2] },
      services,
    );
    process.stdout.write(
      values.json === true ? `${JSON.stringify(result)}\n` : `${await (TEXT[name] ?? human)(result)}\n`,
    );
    // A check that found something wrong still prints its report, then says so in its exit code.
    return result.ok === false ? 1 : 0;
  } catch (error) {
    process.stderr.write(`error: ${reason(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await db?.destroy();
    await temporal?.then((t) => t.connection.close()).catch(() => undefined);
  }
}

function reason(error: unknown): string {
  if (
    error instanceof UsageError ||
    error instanceof OnboardingError ||
    error instanceof OnboardingRefused ||
    error instanceof ConfigError
  )
    return error.message;
  if (error instanceof DocumentsInvalid) return error.message;
  if (isTemporalUnavailable(error) || (error as { name?: string }).name === 'DependencyTimeoutError') {
    return 'Temporal is not reachable at TEMPORAL_ADDRESS; start it (npm start) or fix TEMPORAL_ADDRESS';
  }
  const e = error as { code?: string; message?: string };
  const mysqlCode = mysqlErrorCode(error);
  if (mysqlCode !== undefined)
    return `MySQL is not usable at DATABASE_URL (${mysqlCode}); start it or fix DATABASE_URL`;
  if (
    e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
    e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ||
    e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
  ) {
    return (e.message ?? 'invalid arguments').split('\n')[0]!;
  }
  return (e.message ?? String(error)).split('\n')[0]!;
}

process.exitCode = await main(process.argv.slice(2));
