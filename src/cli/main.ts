/**
 * The operator CLI: `npm run --silent cli -- <noun> <verb> [--flags] [--json]`.
 * With --json it prints one JSON object on stdout and nothing else; a refused
 * step exits non-zero with a one-line reason on stderr (docs/API.md#operator-cli-onboarding-keys-and-fees).
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { createDatabase, type Db } from '../db/database.ts';
import { mysqlErrorCode } from '../db/errors.ts';
import { createMerchant, OnboardingError } from '../merchants/merchants.ts';
import { activateLiveMode, addDomain, approveGateway, createMerchantKey, requestGateway, revokeKey, rollKey, setFees } from '../merchants/onboarding.ts';
import type { Config } from '../config.ts';

type Flags = Record<string, string | boolean | undefined>;
/** Loaded only by the command that uses it: it brings the Temporal client, which the other commands do without. */
const paymentsShow = () => import('./payments-show.ts');
type Command = (db: Db, config: Config, flags: Flags) => Promise<Record<string, unknown>>;

export class UsageError extends Error {
  override name = 'UsageError';
}

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A whole number of the flag's unit (rials, seconds, basis points). */
function wholeNumber(flags: Flags, name: string): number {
  const text = required(flags, name);
  const value = Number(text);
  if (!/^[0-9]{1,15}$/.test(text) || !Number.isSafeInteger(value)) throw new UsageError(`--${name} must be a whole number (got ${JSON.stringify(text)})`);
  return value;
}

export const COMMANDS: Record<string, Command> = {
  'merchants create': (db, config, flags) => createMerchant(db, config, { name: required(flags, 'name'), domain: required(flags, 'domain') }),
  'domains add': (db, _config, flags) => addDomain(db, required(flags, 'merchant'), required(flags, 'domain')),
  'gateways request': (db, _config, flags) => requestGateway(db, required(flags, 'merchant')),
  'gateways approve': (db, _config, flags) => approveGateway(db, required(flags, 'merchant')),
  'live activate': (db, _config, flags) => activateLiveMode(db, required(flags, 'merchant')),
  'keys create': (db, _config, flags) => createMerchantKey(db, required(flags, 'merchant'), required(flags, 'mode')),
  'keys revoke': (db, _config, flags) => revokeKey(db, required(flags, 'key')),
  'keys roll': (db, _config, flags) => rollKey(db, required(flags, 'key'), wholeNumber(flags, 'expires-in')),
  'fees set': (db, _config, flags) =>
    setFees(db, required(flags, 'merchant'), { bps: wholeNumber(flags, 'bps'), min: wholeNumber(flags, 'min'), max: wholeNumber(flags, 'max') }),
  'payments show': async (db, config, flags) => (await paymentsShow()).showPayment(db, config, required(flags, 'id')),
};

/** Commands that take one positional argument after the verb, and the flag it fills (`payments show <id>`). */
const ARGUMENTS: Record<string, string> = { 'payments show': 'id' };
/** Commands whose human output is more than `key: value` lines. */
const TEXT: Record<string, (result: Record<string, unknown>) => Promise<string>> = { 'payments show': async (view) => (await paymentsShow()).paymentViewText(view) };

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
  id: { type: 'string' },
} as const;

function human(result: Record<string, unknown>): string {
  return Object.entries(result)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('\n');
}

async function main(argv: string[]): Promise<number> {
  let db: Db | undefined;
  try {
    const { positionals, values } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const name = positionals.slice(0, 2).join(' ');
    const command = COMMANDS[name];
    const argument = ARGUMENTS[name];
    if (command === undefined || positionals.length !== (argument === undefined ? 2 : 3)) {
      throw new UsageError(`unknown command "${positionals.join(' ')}"; commands: ${Object.keys(COMMANDS).join(', ')}`);
    }
    const config = loadConfig();
    db = createDatabase(config.DATABASE_URL, { poolSize: 2 }).db;
    const result = await command(db, config, argument === undefined ? values : { ...values, [argument]: positionals[2] });
    process.stdout.write(values.json === true ? `${JSON.stringify(result)}\n` : `${await (TEXT[name] ?? human)(result)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${reason(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await db?.destroy();
  }
}

function reason(error: unknown): string {
  if (error instanceof UsageError || error instanceof OnboardingError || error instanceof ConfigError || (error instanceof Error && error.name === 'PaymentNotFound')) return error.message;
  const e = error as { code?: string; message?: string };
  const mysqlCode = mysqlErrorCode(error);
  if (mysqlCode !== undefined) return `MySQL is not usable at DATABASE_URL (${mysqlCode}); start it or fix DATABASE_URL`;
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' || e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return (e.message ?? 'invalid arguments').split('\n')[0]!;
  }
  return (e.message ?? String(error)).split('\n')[0]!;
}

process.exitCode = await main(process.argv.slice(2));
