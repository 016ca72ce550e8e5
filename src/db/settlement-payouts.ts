/**
 * A settlement's payouts (docs/LEDGER.md#settlement): the merchant's transfer and its beneficiaries', the
 * bank's answer to each recorded once, an operator's reopening of a refused one, and their states as the
 * workflows and the service read them. Making a settlement is src/db/settlements.ts.
 */
import type { BeneficiaryPayout } from '../domain/settlement-schemas.ts';
import type { Db, SettlementRow } from './database.ts';
import { recordEvent, type StoredEvent } from './events.ts';
import type { BeneficiaryPayoutsTable } from './schema-splits.ts';
import { post } from './ledger.ts';
import { settlementFromRow } from './settlements.ts';

/** The bank's answer to a transfer; a settlement whose merchant's net is 0 is paid without one (bank_reference null). */
export type PayoutResult =
  { paid: true; bank_reference: string | null } | { paid: false; code: string; message: string };

/** A settlement's transfers to its beneficiaries still waiting for the bank's answer, each with its attempt. */
export function pendingBeneficiaryPayouts(db: Db, settlementId: string) {
  return db
    .selectFrom('beneficiary_payouts')
    .select(['beneficiary_id', 'iban', 'amount', 'attempt'])
    .where('settlement_id', '=', settlementId)
    .where('status', '=', 'pending')
    .orderBy('beneficiary_id')
    .execute();
}

/**
 * Records the bank's answer to attempt `attempt` of a beneficiary's transfer, once: `paid` with its
 * payout_paid posting, or `failed` (the share stays reserved in payouts); each with its event
 * (beneficiary_payout.paid or .failed), in the same transaction. An answer to another attempt than the
 * row's (an older one's, asked again) changes nothing. Answers the event, or null when nothing was recorded.
 */
export async function recordBeneficiaryPayoutResult(
  db: Db,
  settlementId: string,
  beneficiaryId: string,
  result: PayoutResult,
  at: Date,
  attempt = 1,
): Promise<StoredEvent | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('beneficiary_payouts')
      .selectAll()
      .where('settlement_id', '=', settlementId)
      .where('beneficiary_id', '=', beneficiaryId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (row.status !== 'pending' || row.attempt !== attempt) return null;
    const changes = result.paid
      ? { status: 'paid' as const, bank_reference: result.bank_reference, updated_at: at }
      : {
          status: 'failed' as const,
          failure_code: result.code,
          failure_message: result.message.slice(0, 255),
          updated_at: at,
        };
    await trx
      .updateTable('beneficiary_payouts')
      .set(changes)
      .where('settlement_id', '=', settlementId)
      .where('beneficiary_id', '=', beneficiaryId)
      .execute();
    if (result.paid) {
      await post(trx, {
        cause: `beneficiary:${beneficiaryId}:${settlementId}:paid`,
        movement: 'payout_paid',
        merchantId: row.merchant_id,
        mode: row.mode,
        amount: Number(row.amount),
        settlementId,
        at,
      });
    }
    const payout = beneficiaryPayoutFromRow({ ...row, ...changes });
    // Keyed by the attempt: each attempt's answer is one event, and a retried recording finds the first.
    return recordEvent(trx, {
      sourceKey: `beneficiary_payout:${settlementId}:${beneficiaryId}:${attempt}:${payout.status}`,
      owner: { merchant: { id: row.merchant_id }, mode: row.mode },
      type: result.paid ? 'beneficiary_payout.paid' : 'beneficiary_payout.failed',
      // The settlement's id: a beneficiary's transfer has no id of its own (one per settlement and beneficiary).
      objectId: settlementId,
      data: { beneficiary_payout: payout },
      at,
    });
  });
}

type BeneficiaryPayoutRow = Pick<
  BeneficiaryPayoutsTable,
  | 'settlement_id'
  | 'beneficiary_id'
  | 'iban'
  | 'amount'
  | 'status'
  | 'bank_reference'
  | 'failure_code'
  | 'failure_message'
  | 'updated_at'
> & { attempt: number };

/** A beneficiary_payouts row as the API and its events show it. */
export function beneficiaryPayoutFromRow(row: BeneficiaryPayoutRow): BeneficiaryPayout {
  return {
    settlement_id: row.settlement_id,
    beneficiary_id: row.beneficiary_id,
    iban: row.iban,
    amount: Number(row.amount),
    status: row.status,
    attempt: row.attempt,
    bank_reference: row.status === 'paid' ? row.bank_reference : null,
    failure:
      row.status === 'failed' && row.failure_code !== null
        ? { code: row.failure_code, message: row.failure_message ?? '' }
        : null,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * Records the bank's answer to attempt `attempt` of a settlement's payout, once: `paid` with the
 * payout_paid posting, or `failed`; each with its event. Answers the event, or null when this
 * attempt's answer was already recorded.
 */
export async function recordPayoutResult(
  db: Db,
  id: string,
  attempt: number,
  result: PayoutResult,
  at: Date,
): Promise<StoredEvent | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('settlements')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (row.status !== 'pending' || row.payout_attempt !== attempt) return null;
    const changes = result.paid
      ? {
          status: 'paid' as const,
          paid_at: at,
          bank_reference: result.bank_reference,
          failure_code: null,
          failure_message: null,
          updated_at: at,
        }
      : {
          status: 'failed' as const,
          failed_at: at,
          failure_code: result.code,
          failure_message: result.message.slice(0, 255),
          updated_at: at,
        };
    await trx.updateTable('settlements').set(changes).where('id', '=', id).execute();
    if (result.paid) {
      await post(trx, {
        cause: `settlement:${id}:paid`,
        movement: 'payout_paid',
        merchantId: row.merchant_id,
        mode: row.mode,
        amount: Number(row.net),
        settlementId: id,
        at,
      });
    }
    const settlement = settlementFromRow({ ...row, ...changes });
    return recordEvent(trx, {
      sourceKey: `settlement:${id}:${attempt}:${settlement.status}`,
      owner: { merchant: { id: row.merchant_id }, mode: row.mode },
      type: result.paid ? 'settlement.paid' : 'settlement.failed',
      objectId: id,
      data: { settlement },
      at,
    });
  });
}

/** The operator's retry of a failed payout: the settlement is `pending` again, with the next attempt. */
export async function reopenFailedSettlement(db: Db, id: string, at: Date): Promise<SettlementRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('settlements').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (row === undefined || row.status !== 'failed') return row;
    const changes = { status: 'pending' as const, payout_attempt: row.payout_attempt + 1, updated_at: at };
    await trx.updateTable('settlements').set(changes).where('id', '=', id).where('status', '=', 'failed').execute();
    return { ...row, ...changes };
  });
}

/**
 * The operator's retry of a settlement's beneficiary transfers the bank refused (docs/LEDGER.md#split-settlement):
 * each `failed` one (or only `beneficiaryId`'s) becomes `pending` with the next attempt, in one transaction and
 * only from `failed`, so two retries at once reopen it once. Answers the rows that now wait for a transfer under
 * a retry's key: those reopened, and those an earlier retry reopened whose answer is not in yet (their workflow
 * is started again, under the same attempt and key). Undefined when the settlement has no such beneficiary.
 */
export async function reopenFailedBeneficiaryPayouts(
  db: Db,
  settlementId: string,
  beneficiaryId: string | undefined,
  at: Date,
): Promise<
  | {
      beneficiary_id: string;
      amount: number;
      attempt: number;
      reopened: boolean;
      status: 'pending' | 'paid' | 'failed';
    }[]
  | undefined
> {
  return db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('beneficiary_payouts').selectAll().where('settlement_id', '=', settlementId);
    if (beneficiaryId !== undefined) q = q.where('beneficiary_id', '=', beneficiaryId);
    const rows = await q.orderBy('beneficiary_id').forUpdate().execute();
    if (rows.length === 0) return undefined;
    const answer = [];
    for (const row of rows) {
      if (row.status === 'failed') {
        await trx
          .updateTable('beneficiary_payouts')
          .set({
            status: 'pending',
            attempt: row.attempt + 1,
            failure_code: null,
            failure_message: null,
            updated_at: at,
          })
          .where('settlement_id', '=', settlementId)
          .where('beneficiary_id', '=', row.beneficiary_id)
          .where('status', '=', 'failed')
          .execute();
        answer.push({
          beneficiary_id: row.beneficiary_id,
          amount: Number(row.amount),
          attempt: row.attempt + 1,
          reopened: true,
          status: 'pending' as const,
        });
      } else {
        answer.push({
          beneficiary_id: row.beneficiary_id,
          amount: Number(row.amount),
          attempt: row.attempt,
          reopened: false,
          status: row.status,
        });
      }
    }
    return answer;
  });
}

/** The settlement's state and payout attempt (the merchant's own transfer); undefined: no such settlement. */
export function settlementPayoutState(db: Db, id: string) {
  return db.selectFrom('settlements').select(['status', 'payout_attempt']).where('id', '=', id).executeTakeFirst();
}

/** The state and attempt of each of the settlement's transfers to its beneficiaries, by beneficiary id. */
export function beneficiaryPayoutStates(db: Db, settlementId: string) {
  return db
    .selectFrom('beneficiary_payouts')
    .select(['beneficiary_id', 'status', 'attempt'])
    .where('settlement_id', '=', settlementId)
    .orderBy('beneficiary_id')
    .execute();
}

/** The settlement's transfers to its beneficiaries, whole rows, in the order they are paid (by beneficiary id). */
export function beneficiaryPayoutsOf(db: Db, settlementId: string) {
  return db
    .selectFrom('beneficiary_payouts')
    .selectAll()
    .where('settlement_id', '=', settlementId)
    .orderBy('beneficiary_id')
    .execute();
}

/** What the settlement's payout transfers to the merchant, and where; throws when there is no such settlement. */
export function settlementPayoutTarget(db: Db, id: string) {
  return db.selectFrom('settlements').select(['iban', 'net']).where('id', '=', id).executeTakeFirstOrThrow();
}
