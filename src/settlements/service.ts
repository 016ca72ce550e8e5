/**
 * Settlement for operators and merchants (docs/LEDGER.md#settlement): the
 * merchant's IBAN, a run started now, the retry of a failed payout, and the
 * merchant's balance, settlements and their lines.
 */
import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { accountBalances } from '../db/ledger.ts';
import { reportedPsps } from '../psps/reports.ts';
import {
  draftSettlement,
  findSettlement,
  setMerchantSettlementIban,
  settlementFromRow,
  settlementLineFromRow,
  settlementLines,
  settlementsPage,
  type LineKey,
} from '../db/settlements.ts';
import {
  beneficiaryPayoutFromRow,
  beneficiaryPayoutsOf,
  beneficiaryPayoutStates,
  reopenFailedBeneficiaryPayouts,
  reopenFailedSettlement,
  settlementPayoutState,
} from '../db/settlement-payouts.ts';
import type { Tenant } from '../domain/merchant.ts';
import {
  SETTLEMENT_CSV_COLUMNS,
  type Balance,
  type BeneficiaryPayout,
  type ListSettlementsQuery,
  type Settlement,
  type SettlementLine,
} from '../domain/settlement-schemas.ts';
import { isValidSheba, normalizeSheba } from '../domain/business-documents.ts';
import { DomainError } from '../errors.ts';
import { OnboardingError } from '../merchants/merchants.ts';
import { startBeneficiaryPayoutAttempt, startPayoutAttempt } from '../temporal/settlements.ts';
import { triggerSettlementRun } from '../temporal/schedules.ts';

/** Sets where the merchant's settlements are paid; refuses anything that is not a Sheba IBAN (mod-97 checked). */
export async function setSettlementIban(db: Db, merchantId: string, input: string) {
  const iban = normalizeSheba(input);
  if (!isValidSheba(iban))
    throw new OnboardingError(`"${input}" is not a Sheba IBAN (IR and 24 digits whose check digits hold)`);
  if (!(await setMerchantSettlementIban(db, merchantId, iban))) throw new OnboardingError(`no merchant ${merchantId}`);
  return { merchant_id: merchantId, settlement_iban: iban };
}

/** Starts a settlement run now, through the schedule the worker created. */
export async function runSettlementNow(temporal: Client) {
  await triggerSettlementRun(temporal);
  return { started: true };
}

/**
 * The operator's retry of a failed payout: the settlement's next attempt, in a workflow of its own
 * (a new key at the bank). A settlement whose retry is already under way is started again at most
 * once (the same workflow id); a paid one is refused.
 */
export async function retrySettlement(
  db: Db,
  temporal: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
  id: string,
) {
  const row = await reopenFailedSettlement(db, id, new Date());
  if (row === undefined) throw new OnboardingError(`no settlement ${id}`);
  if (row.status === 'paid') throw new OnboardingError(`settlement ${id} is already paid`);
  await startPayoutAttempt(temporal, config, row);
  return { settlement_id: id, attempt: row.payout_attempt, status: 'pending' };
}

/**
 * The operator's retry of a settlement's beneficiary transfers the bank refused (docs/LEDGER.md#split-settlement):
 * each failed one (or only `beneficiaryId`'s) is `pending` again with the next attempt, a new key at the bank
 * (`payout:<settlement>:beneficiary:<id>:<attempt>`), and paid by a workflow of its own
 * (`settlement-<settlement>-beneficiary-<id>-attempt-<n>`), which records the bank's answer once. Exactly once:
 * only a `failed` row is reopened (under a row lock), a paid one is never asked for again, and a retry whose
 * answer is not in yet is started again under the same attempt, so the bank makes at most one transfer for it.
 */
export async function retryBeneficiaryPayouts(
  db: Db,
  temporal: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
  settlementId: string,
  beneficiaryId?: string,
) {
  const rows = await reopenFailedBeneficiaryPayouts(db, settlementId, beneficiaryId, new Date());
  if (rows === undefined) {
    throw new OnboardingError(
      beneficiaryId === undefined
        ? `settlement ${settlementId} pays no beneficiary`
        : `settlement ${settlementId} pays no beneficiary ${beneficiaryId}`,
    );
  }
  // A pending first attempt belongs to the settlement's own workflow, still asking the bank: left to it.
  const waiting = rows.filter((r) => r.status === 'pending' && r.attempt > 1);
  if (waiting.length === 0) {
    const states = rows.map((r) => `${r.beneficiary_id} ${r.status}`).join(', ');
    throw new OnboardingError(`settlement ${settlementId} has no refused beneficiary transfer to retry (${states})`);
  }
  for (const row of waiting)
    await startBeneficiaryPayoutAttempt(temporal, config, {
      settlement_id: settlementId,
      beneficiary_id: row.beneficiary_id,
      attempt: row.attempt,
    });
  return {
    settlement_id: settlementId,
    retried: waiting.map((r) => ({
      beneficiary_id: r.beneficiary_id,
      amount: r.amount,
      attempt: r.attempt,
      status: r.status,
    })),
  };
}

/**
 * `settlements retry`: every transfer of a settlement the bank refused, asked for again (docs/LEDGER.md#split-settlement).
 * With `beneficiaryId`, that beneficiary's transfer only (retryBeneficiaryPayouts). Without, the refused beneficiary
 * transfers first (each in a workflow of its own, the next attempt under its own key), then the merchant's own
 * transfer when it was refused (retrySettlement, the settlement's next attempt). A retry whose answer is not in yet
 * is started again under the same attempt, so each transfer is made at most once however many retries race; a
 * settlement with nothing refused is refused with the state of each of its transfers.
 */
export async function retryRefusedTransfers(
  db: Db,
  temporal: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
  id: string,
  beneficiaryId?: string,
) {
  if (beneficiaryId !== undefined) return retryBeneficiaryPayouts(db, temporal, config, id, beneficiaryId);
  const settlement = await settlementPayoutState(db, id);
  if (settlement === undefined) throw new OnboardingError(`no settlement ${id}`);
  const shares = await beneficiaryPayoutStates(db, id);
  // The first attempts are the settlement workflow's own, still under way while pending: only retries are restarted.
  const sharesToRetry = shares.some((r) => r.status === 'failed' || (r.status === 'pending' && r.attempt > 1));
  const merchantToRetry =
    settlement.status === 'failed' || (settlement.status === 'pending' && settlement.payout_attempt > 1);
  if (!sharesToRetry && !merchantToRetry) {
    const states = [
      `the merchant's ${settlement.status}`,
      ...shares.map((r) => `${r.beneficiary_id} ${r.status}`),
    ].join(', ');
    throw new OnboardingError(`settlement ${id} has no refused transfer to retry (${states})`);
  }
  const retried = sharesToRetry ? (await retryBeneficiaryPayouts(db, temporal, config, id)).retried : [];
  const merchant = merchantToRetry ? await retrySettlement(db, temporal, config, id) : undefined;
  return {
    settlement_id: id,
    retried,
    ...(merchant === undefined ? {} : { attempt: merchant.attempt, status: merchant.status }),
  };
}

/** The tenant's balance: what the next settlement would pay now, the rest, what is held and what is on its way. */
export async function getBalance(
  db: Db,
  tenant: Tenant,
  config: Pick<Config, 'SETTLEMENT_HOLD_HOURS'>,
): Promise<Balance> {
  const accounts = await accountBalances(db, tenant.merchant.id, tenant.mode);
  const balance = accounts.balance ?? 0;
  // Test mode is never settled: all of it stays pending.
  const available =
    tenant.mode === 'live'
      ? (
          await draftSettlement(
            db,
            tenant.merchant.id,
            new Date(Date.now() - config.SETTLEMENT_HOLD_HOURS * 3_600_000),
            reportedPsps(),
          )
        ).net
      : 0;
  return {
    mode: tenant.mode,
    available,
    pending: balance - available,
    held: accounts.held ?? 0,
    in_payout: accounts.payouts ?? 0,
  };
}

export async function listSettlements(db: Db, tenant: Tenant, query: ListSettlementsQuery) {
  return settlementsPage(db, tenant, query);
}

async function ownSettlement(db: Db, tenant: Tenant, id: string) {
  const row = await findSettlement(db, id, tenant);
  if (row === undefined) throw new DomainError('settlement_not_found', 'No settlement with this id.');
  return row;
}

export type { LineKey };

/** A settlement with its lines (payments, refunds, refused refunds given back), in a stable order. */
export async function getSettlement(
  db: Db,
  tenant: Tenant,
  id: string,
): Promise<{ settlement: Settlement; lines: SettlementLine[] }> {
  const row = await ownSettlement(db, tenant, id);
  return { settlement: settlementFromRow(row), lines: (await settlementLines(db, id)).map(settlementLineFromRow) };
}

/**
 * A settlement with one page of its lines (`limit` of them, after `after`) and where the next page
 * starts (null on the last): a settlement may cover thousands of payments, more than a page shows.
 */
/**
 * A settlement's transfers to its beneficiaries, each with its state and attempt (docs/LEDGER.md#split-settlement),
 * in the order they are paid (by beneficiary id): what the dashboard's settlement page shows.
 */
export async function beneficiaryPayoutsOfSettlement(db: Db, tenant: Tenant, id: string): Promise<BeneficiaryPayout[]> {
  await ownSettlement(db, tenant, id);
  const rows = await beneficiaryPayoutsOf(db, id);
  return rows.map(beneficiaryPayoutFromRow);
}

export async function getSettlementLinesPage(
  db: Db,
  tenant: Tenant,
  id: string,
  page: { limit: number; after?: LineKey },
): Promise<{ settlement: Settlement; lines: SettlementLine[]; next: LineKey | null }> {
  const row = await ownSettlement(db, tenant, id);
  const rows = await settlementLines(db, id, { limit: page.limit + 1, after: page.after });
  const kept = rows.slice(0, page.limit);
  const last = kept.at(-1);
  return {
    settlement: settlementFromRow(row),
    lines: kept.map(settlementLineFromRow),
    next: rows.length > page.limit && last !== undefined ? { kind: last.kind, object_id: last.object_id } : null,
  };
}

/**
 * The settlement's lines as a CSV file, checked first (an unknown id is refused before the first
 * byte), then read a page at a time, for streaming.
 */
export async function settlementLinesCsv(
  db: Db,
  tenant: Tenant,
  id: string,
): Promise<{ filename: string; body: AsyncGenerator<string> }> {
  await ownSettlement(db, tenant, id);
  return { filename: `settlement-${id}.csv`, body: csvLines(db, id) };
}

async function* csvLines(db: Db, id: string): AsyncGenerator<string> {
  yield `${SETTLEMENT_CSV_COLUMNS.join(',')}\r\n`;
  let after: LineKey | undefined;
  for (;;) {
    const rows = await settlementLines(db, id, { limit: 1_000, after });
    if (rows.length === 0) return;
    yield rows
      .map(settlementLineFromRow)
      .map((l) => `${SETTLEMENT_CSV_COLUMNS.map((c) => String(l[c] ?? '')).join(',')}\r\n`)
      .join('');
    const last = rows.at(-1)!;
    after = { kind: last.kind, object_id: last.object_id };
  }
}
