/**
 * The operator's bank reconciliation commands (docs/psps/README.md#bank-reconciliation):
 * `reconcile run` gives a terminal's day from its payments' own recorded verify and reverse answers,
 * for a PSP without a documented daily report (it asks the PSP nothing: no reference shows a report
 * call, and it says so); `reconcile import` reconciles a day from the report file downloaded from a
 * PSP's panel, where a reference documents its layout; `reconcile show` prints the day's newest run
 * (`--json`, or `--csv`: one line per item). `import` exits 1 when the day has a difference, as
 * `ledger check` does when it finds one.
 */
import { readFile } from 'node:fs/promises';
import { pspClient, pspClientsFromConfig } from '../psps/clients.ts';
import {
  bankReconciliationCsv,
  bankReconciliationOf,
  reconcileFromFile,
  reconcileFromRecords,
  terminalDay,
  type BankReconciliationResult,
} from '../settlements/bank-reconciliation.ts';
import { required, UsageError, type Command, type Flags } from './onboarding-commands.ts';

/**
 * The one `--file` given: the CLI shares that option with `documents submit`, where it repeats
 * (a string list), so one definition serves both and this command takes exactly one.
 */
function reportFile(flags: Flags): string {
  const { file } = flags;
  const files = Array.isArray(file) ? file : typeof file === 'string' ? [file] : [];
  if (files.length !== 1 || files[0]!.trim() === '')
    throw new UsageError('--file is required, once: the report file downloaded from the PSP');
  return files[0]!;
}

/** The terminal's day the flags name; `--mode` is live unless given. */
const dayOf = (flags: Flags) =>
  terminalDay({
    mode: typeof flags.mode === 'string' ? flags.mode : 'live',
    psp: required(flags, 'psp'),
    terminal_id: required(flags, 'terminal'),
    day: required(flags, 'date'),
  });

/** A run as the operator reads it: its counts, and `ok` false (exit 1) when any is a difference. */
function runSummary({ run, created }: BankReconciliationResult): Record<string, unknown> {
  const differences = run.counts.bank_only + run.counts.gateway_only + run.counts.amount_mismatch;
  return {
    ok: differences === 0,
    run_id: run.id,
    new_run: created,
    mode: run.mode,
    psp: run.psp,
    terminal: run.terminal_id,
    date: run.day,
    source: run.source,
    ...run.counts,
    differences,
  };
}

export const RECONCILE_COMMANDS: Record<string, Command> = {
  'reconcile run': async (db, config, flags) => {
    const day = dayOf(flags);
    // The deployment's own terminal also answers for the payments recorded before routing named one.
    const deployed = pspClient(pspClientsFromConfig(config), day.mode, day.psp)?.terminalId === day.terminal_id;
    const recorded = await reconcileFromRecords(db, day, new Date(), { deployed });
    return { ok: true, ...recorded, terminal: recorded.terminal_id, date: recorded.day };
  },
  'reconcile import': async (db, config, flags) => {
    const day = dayOf(flags);
    const text = await readFile(reportFile(flags), 'utf8');
    const deployed = pspClient(pspClientsFromConfig(config), day.mode, day.psp)?.terminalId === day.terminal_id;
    return runSummary(await reconcileFromFile(db, { ...day, text }, new Date(), { deployed }));
  },
  'reconcile show': async (db, _config, flags) => {
    if (flags.csv === true && flags.json === true) throw new UsageError('--csv or --json, not both');
    const { run, items } = await bankReconciliationOf(db, dayOf(flags));
    return flags.csv === true ? { csv: bankReconciliationCsv(items) } : { run, items };
  },
};

/** `reconcile show` without --json: the CSV as it is, or the run and a line per item. */
export const RECONCILE_TEXT: Record<string, (result: Record<string, unknown>) => Promise<string>> = {
  'reconcile show': async (result) => {
    if (typeof result.csv === 'string') return result.csv.trimEnd();
    const { run, items } = result as Awaited<ReturnType<typeof bankReconciliationOf>>;
    const head = `${run.psp} terminal ${run.terminal_id} (${run.mode}) ${run.day}: run ${run.id} of ${run.created_at} (${run.source}); matched ${run.counts.matched}, bank_only ${run.counts.bank_only}, gateway_only ${run.counts.gateway_only}, amount_mismatch ${run.counts.amount_mismatch}`;
    const lines = items.map(
      (i) =>
        `${i.kind.padEnd(15)} ${i.payment_id ?? '-'} order ${i.order_id} ref ${i.ref_num ?? '-'} card ${i.card_pan ?? '-'} bank ${i.bank_amount ?? '-'} gateway ${i.gateway_amount ?? '-'}`,
    );
    return [head, ...lines].join('\n');
  },
};

export const RECONCILE_OPTIONS = {
  psp: { type: 'string' },
  terminal: { type: 'string' },
  date: { type: 'string' },
  csv: { type: 'boolean' },
} as const;
