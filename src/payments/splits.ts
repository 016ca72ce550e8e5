/**
 * Split settlement at create and the beneficiaries a merchant registers
 * (docs/PAYMENTS.md#split-settlement): a create's `splits` are checked
 * against the rules and the merchant's approved beneficiaries before
 * anything is written.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';
import {
  approvedBeneficiaryIds,
  beneficiariesByStatus,
  beneficiaryFromRow,
  beneficiaryStatus,
  insertBeneficiary,
  merchantBeneficiaries,
  paymentSplits,
  reviewBeneficiary,
  revokeApprovedBeneficiary,
  splitsOfPayments,
  type NewSplit,
} from '../db/splits.ts';
import { isValidSheba, normalizeSheba } from '../domain/business-documents.ts';
import type { Tenant } from '../domain/merchant.ts';
import type { FeePlan } from '../domain/payment.ts';
import type { CreatePaymentRequest, Payment } from '../domain/payment-schemas.ts';
import type { Beneficiary, CreateBeneficiaryRequest } from '../domain/split-schemas.ts';
import {
  BENEFICIARY_STATUSES,
  splitProblems,
  splittableAmount,
  splitTotal,
  type BeneficiaryStatus,
} from '../domain/splits.ts';
import { DomainError } from '../errors.ts';
import { OnboardingError } from '../merchants/merchants.ts';

/**
 * The shares a create asks for, each with its approved beneficiary, or a refusal (nothing written):
 * 422 `validation_failed` for a malformed IBAN or amount, `split_exceeds_amount` when they add up to
 * more than the merchant receives (the amount less the fee the merchant pays), `beneficiary_not_approved`
 * for an IBAN that is not one of the merchant's approved beneficiaries.
 */
export async function resolveSplits(
  db: Db,
  merchant: { id: string; fee_plan: FeePlan },
  request: Pick<CreatePaymentRequest, 'amount' | 'fee_payer' | 'splits'>,
): Promise<NewSplit[]> {
  const splits = request.splits ?? [];
  if (splits.length === 0) return [];
  const problems = splitProblems(splits);
  if (problems.length > 0)
    throw new DomainError(
      'validation_failed',
      `The request body is invalid: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`,
      problems,
    );
  const limit = splittableAmount(request.amount, merchant.fee_plan, request.fee_payer ?? 'merchant');
  const total = splitTotal(splits);
  if (total > limit) {
    throw new DomainError(
      'split_exceeds_amount',
      `The splits add up to ${total} rials, more than the ${limit} rials the payment leaves after its fee.`,
      [{ path: 'splits', message: `must add up to at most ${limit}` }],
    );
  }
  const ibans = splits.map((s) => normalizeSheba(s.iban));
  const approved = await approvedBeneficiaryIds(db, merchant.id, ibans);
  const missing = ibans.map((iban, i) => ({ iban, i })).filter(({ iban }) => !approved.has(iban));
  if (missing.length > 0) {
    throw new DomainError(
      'beneficiary_not_approved',
      `${missing.map((m) => m.iban).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not among your approved beneficiaries: register it (POST /api/v1/beneficiaries) and wait for the operator's approval.`,
      missing.map(({ i }) => ({ path: `splits/${i}/iban`, message: 'is not an approved beneficiary' })),
    );
  }
  return splits.map((s, i) => ({
    id: randomUUID(),
    beneficiary_id: approved.get(ibans[i]!)!,
    amount: s.amount,
    description: s.description ?? '',
  }));
}

/** The payment with its shares, when it has any (the resource's `splits`). */
export async function withSplits(db: Db, payment: Payment): Promise<Payment> {
  const splits = await paymentSplits(db, payment.id);
  return splits.length === 0 ? payment : { ...payment, splits };
}

/** A page of payments, each with its shares when it has any, read in one query for the page (not one a payment). */
export async function pageWithSplits(db: Db, payments: Payment[]): Promise<Payment[]> {
  const shares = await splitsOfPayments(
    db,
    payments.map((p) => p.id),
  );
  return payments.map((p) => {
    const splits = shares.get(p.id);
    return splits === undefined ? p : { ...p, splits };
  });
}

/**
 * Registers an IBAN as the merchant's beneficiary, `pending` until the operator approves it; the same IBAN again
 * answers the one it is (a revoked one stays revoked). Live keys only (403 `live_mode_only`): a share is paid out
 * of live money, and a test key (handed to developers, kept in staging) must not name where it goes
 * (docs/SECURITY.md); the dashboard registers in live mode after a step-up.
 */
export async function registerBeneficiary(
  db: Db,
  tenant: Pick<Tenant, 'merchant' | 'mode'>,
  request: CreateBeneficiaryRequest,
): Promise<{ beneficiary: Beneficiary; created: boolean }> {
  if (tenant.mode !== 'live')
    throw new DomainError(
      'live_mode_only',
      'Beneficiaries are registered with a live key: a share is paid out of live money. Use a sk_live_ key.',
    );
  const iban = normalizeSheba(request.iban);
  if (!isValidSheba(iban)) {
    throw new DomainError(
      'validation_failed',
      'iban must be a Sheba IBAN (IR and 24 digits whose check digits hold).',
      [{ path: 'iban', message: 'must be a Sheba IBAN' }],
    );
  }
  const { row, created } = await insertBeneficiary(db, {
    id: randomUUID(),
    merchant_id: tenant.merchant.id,
    iban,
    name: request.name.trim(),
    created_at: new Date(),
  });
  return { beneficiary: beneficiaryFromRow(row), created };
}

export async function listBeneficiaries(db: Db, tenant: Pick<Tenant, 'merchant'>): Promise<{ data: Beneficiary[] }> {
  return { data: (await merchantBeneficiaries(db, tenant.merchant.id)).map(beneficiaryFromRow) };
}

/** The operator's list of beneficiaries to review (`beneficiaries list --status pending`), oldest first, with their merchant. */
export async function beneficiariesToReview(
  db: Db,
  status: string | undefined,
): Promise<{ count: number; beneficiaries: (Beneficiary & { merchant_id: string; merchant_name: string })[] }> {
  if (status !== undefined && !(BENEFICIARY_STATUSES as readonly string[]).includes(status))
    throw new OnboardingError(`--status must be one of ${BENEFICIARY_STATUSES.join(', ')}`);
  const rows = await beneficiariesByStatus(db, status as BeneficiaryStatus | undefined);
  return {
    count: rows.length,
    beneficiaries: rows.map((r) => ({
      ...beneficiaryFromRow(r),
      merchant_id: r.merchant_id,
      merchant_name: r.merchant_name,
    })),
  };
}

/**
 * The operator approves or rejects a pending beneficiary, after checking the account is the merchant's
 * partner's (Shaparak pays only registered IBANs). A reviewed one is not changed again.
 */
export async function decideBeneficiary(
  db: Db,
  id: string,
  decision: { status: 'approved' } | { status: 'rejected'; reason: string },
): Promise<{ beneficiary: Beneficiary }> {
  const before = await beneficiaryStatus(db, id);
  if (before === undefined) throw new OnboardingError(`no beneficiary ${id}`);
  if (before.status !== 'pending') throw new OnboardingError(`beneficiary ${id} is already ${before.status}`);
  const row = await reviewBeneficiary(db, id, decision, new Date());
  return { beneficiary: beneficiaryFromRow(row!) };
}

/**
 * The operator withdraws an approved beneficiary (`beneficiaries revoke --id … --reason …`): every later create
 * that splits to it is refused `beneficiary_not_approved`. The shares of payments made before stay theirs: they were
 * fixed when those payments were made, and the ledger owes them (docs/PAYMENTS.md#split-settlement).
 */
export async function revokeBeneficiary(db: Db, id: string, reason: string): Promise<{ beneficiary: Beneficiary }> {
  const before = await beneficiaryStatus(db, id);
  if (before === undefined) throw new OnboardingError(`no beneficiary ${id}`);
  if (before.status !== 'approved')
    throw new OnboardingError(`beneficiary ${id} is ${before.status}: only an approved one is revoked`);
  const row = await revokeApprovedBeneficiary(db, id, reason, new Date());
  if (row?.status !== 'revoked')
    throw new OnboardingError(`beneficiary ${id} is ${row?.status ?? 'gone'}: only an approved one is revoked`);
  return { beneficiary: beneficiaryFromRow(row) };
}
