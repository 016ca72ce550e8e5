/**
 * Settlement's contract (docs/LEDGER.md#settlement): the workflows' names
 * and inputs, shared by the workflows, their activities, the Temporal
 * Schedule and the CLI. Pure code.
 */
import { defineSearchAttributeKey } from '@temporalio/common';

export const SETTLEMENT_RUN_WORKFLOW = 'settlementRunWorkflow';
export const SETTLEMENT_WORKFLOW = 'settlementWorkflow';
/** The Temporal Schedule that starts a run (SETTLEMENT_CRON); created or brought up to date by every worker. */
export const SETTLEMENT_SCHEDULE_ID = 'dargah-settlement';

export const SETTLEMENT_STATUSES = ['pending', 'paid', 'failed'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/** Search attributes of settlement workflows, for operators in the Temporal UI (MerchantId is the payments' one). */
export const settlementSearchAttributes = {
  status: defineSearchAttributeKey('SettlementStatus', 'KEYWORD'),
  merchantId: defineSearchAttributeKey('MerchantId', 'KEYWORD'),
  /** The run's day in Tehran, YYYY-MM-DD. */
  date: defineSearchAttributeKey('SettlementDate', 'KEYWORD'),
} as const;

export interface SettlementRunInput {
  /** Where the run came from: `schedule` or `cli`; for the operator's eyes only. */
  trigger: string;
}

export interface SettlementWorkflowInput {
  settlement_id: string;
  merchant_id: string;
  /** Payments verified at or before this instant are covered (now − SETTLEMENT_HOLD_HOURS at the run). */
  cutoff: string;
  date: string;
  /** Set by the operator's retry of a failed payout: pay this attempt of an existing settlement. */
  retry_attempt?: number;
}

/** What one merchant's settlement came to. */
export type SettlementOutcome =
  | { result: 'paid' | 'failed'; settlement_id: string; net: number }
  | { result: 'carried'; net: number }
  | { result: 'skipped'; reason: 'no_iban' };

export const settlementWorkflowId = (settlementId: string, attempt = 1) =>
  attempt === 1 ? `settlement-${settlementId}` : `settlement-${settlementId}-attempt-${attempt}`;

/** The payout's key at the bank: one transfer per settlement and attempt, whatever retries in between. */
export const payoutKey = (settlementId: string, attempt: number) => `payout:${settlementId}:${attempt}`;

/**
 * The bank's key of a settlement's transfer to one beneficiary (docs/LEDGER.md#split-settlement): one
 * transfer per settlement, beneficiary and attempt, and a settlement per merchant and day, so a beneficiary
 * is paid once a day whoever asks again. The first attempt's key is the one transfers had before retries
 * existed; each operator retry after a refusal is the next attempt, a new key (the bank answers a repeated
 * key with its first answer, the refusal).
 */
export const beneficiaryPayoutKey = (settlementId: string, beneficiaryId: string, attempt = 1) =>
  `payout:${settlementId}:beneficiary:${beneficiaryId}${attempt === 1 ? '' : `:${attempt}`}`;

/** The workflow type of an operator's retry of one refused beneficiary transfer. */
export const BENEFICIARY_PAYOUT_WORKFLOW = 'beneficiaryPayoutWorkflow';

/** One workflow per beneficiary transfer attempt: a retry is started at most once. */
export const beneficiaryPayoutWorkflowId = (settlementId: string, beneficiaryId: string, attempt: number) =>
  `settlement-${settlementId}-beneficiary-${beneficiaryId}-attempt-${attempt}`;

export interface BeneficiaryPayoutInput {
  settlement_id: string;
  beneficiary_id: string;
  attempt: number;
}
