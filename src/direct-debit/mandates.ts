/**
 * Mandates through the API (docs/API.md#mandates, docs/SUBSCRIPTIONS.md#mandates): asking one (a row
 * `pending` and its workflow, under the Idempotency-Key as payments are), reading and listing them,
 * cancelling one, and the customer's two steps in between: the bank page (the provider's banks, each
 * a link to its signing page) and the return from the bank, handed to the mandate's workflow.
 */
import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { eventSummariesAbout } from '../db/events.ts';
import {
  insertMandate,
  mandateFromRow,
  mandateRowById,
  mandatesPage,
  mandateUsage,
  recordMandateBank,
  tenantMandate,
} from '../db/mandates.ts';
import { merchantById } from '../db/merchants.ts';
import { subscriptionFromRow, subscriptionsOfMandate } from '../db/subscriptions.ts';
import type { MandateRow } from '../db/schema.ts';
import { mandateLimitProblems } from '../domain/mandate.ts';
import type { CreateMandateRequest, ListMandatesQuery, Mandate } from '../domain/mandate-schemas.ts';
import { MANDATE_SIGNING_WINDOW_MS } from '../domain/mandate-workflow.ts';
import type { AuthState, Tenant } from '../domain/merchant.ts';
import { DomainError } from '../errors.ts';
import { checkCallbackUrl } from '../payments/create.ts';
import { idempotent, type IdempotentResult } from '../payments/idempotency.ts';
import { cancelMandateWorkflow, mandateReturned, startMandateWorkflow } from '../temporal/mandates.ts';
import type { DirectDebitProviders } from './providers/registry.ts';
import type { ProviderBank } from './providers/contract.ts';
import { customerUrlOf, type CustomerPageConfig } from './customer-links.ts';

export interface MandateServiceDeps {
  db: Db;
  temporal: Client;
  config: Config;
  providers: DirectDebitProviders;
}

/** The hosted page where the customer picks a bank: ours, so the provider's list of banks is shown in our languages. */
export function bankPageUrl(config: Pick<Config, 'PUBLIC_BASE_URL'>, id: string): string {
  return `${config.PUBLIC_BASE_URL.replace(/\/$/, '')}/mandates/${id}/bank`;
}

/** The return URL checked as a payment's callback_url is (https, the merchant's domains), named as the mandate's field. */
function checkReturnUrl(url: string, auth: AuthState): void {
  try {
    checkCallbackUrl(url, auth);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const rename = (text: string) => text.replaceAll('callback_url', 'return_url');
    throw new DomainError(
      error.code,
      rename(error.message),
      error.details?.map((d) => ({ path: rename(d.path), message: d.message })),
    );
  }
}

export async function createMandate(
  { db, temporal, config, providers }: MandateServiceDeps,
  auth: AuthState,
  request: CreateMandateRequest,
  idempotencyKey: string | undefined,
): Promise<IdempotentResult> {
  // Every refusal comes before the Idempotency-Key is taken and before anything is written.
  const expiresAt = new Date(request.expires_at);
  const problems = mandateLimitProblems(
    {
      max_amount: request.max_amount,
      max_daily_count: request.max_daily_count,
      max_monthly_count: request.max_monthly_count,
      expires_at: expiresAt,
    },
    new Date(),
  );
  if (problems.length > 0)
    throw new DomainError(
      'validation_failed',
      `The mandate's limits are not valid: ${problems[0]!.path} ${problems[0]!.message}.`,
      problems,
    );
  checkReturnUrl(request.return_url, auth);
  if (providers[auth.mode] === undefined)
    throw new DomainError('direct_debit_not_configured', `Direct debit is not configured in ${auth.mode} mode.`);
  return idempotent(
    db,
    { owner: auth, operation: 'create_mandate' },
    idempotencyKey,
    request,
    config.IDEMPOTENCY_TTL_SECONDS,
    async (id, fresh) => {
      // A retry under the same key may find the row its first attempt wrote; a fresh id cannot.
      let row = fresh ? undefined : await mandateRowById(db, id);
      if (row === undefined) {
        await insertMandate(db, {
          id,
          merchant_id: auth.merchant.id,
          mode: auth.mode,
          provider: providers[auth.mode]!.name,
          status: 'pending',
          mobile: request.mobile,
          national_code: request.national_code ?? null,
          max_amount: request.max_amount,
          max_daily_count: request.max_daily_count,
          max_monthly_count: request.max_monthly_count,
          expires_at: expiresAt,
          return_url: request.return_url,
          merchant_reference: request.reference ?? '',
          created_at: new Date(),
        });
        row = (await mandateRowById(db, id))!;
      }
      await startMandateWorkflow(temporal, config.TEMPORAL_TASK_QUEUE, {
        mandate_id: id,
        expires_at_ms: expiresAt.getTime(),
        signing_window_ms: MANDATE_SIGNING_WINDOW_MS,
        provider_return_url: `${config.PUBLIC_BASE_URL.replace(/\/$/, '')}/mandates/${id}/return`,
      });
      return { status: 201, body: { mandate: mandateFromRow(row), bank_page_url: bankPageUrl(config, id) } };
    },
  );
}

async function found(db: Db, tenant: Tenant, id: string): Promise<MandateRow> {
  const row = await tenantMandate(db, tenant, id);
  if (row === undefined) throw new DomainError('mandate_not_found', `No mandate ${id}.`);
  return row;
}

export async function getMandate(db: Db, tenant: Tenant, id: string): Promise<Mandate> {
  return mandateFromRow(await found(db, tenant, id));
}

export function listMandates(db: Db, tenant: Tenant, query: ListMandatesQuery) {
  return mandatesPage(db, tenant, query);
}

/**
 * Cancels a pending or active mandate through its workflow (which ends it at the provider too) and
 * answers it; an ended mandate is answered as it is, so cancelling twice answers the same.
 */
export async function cancelMandate(
  deps: Pick<MandateServiceDeps, 'db' | 'temporal'>,
  tenant: Tenant,
  id: string,
): Promise<Mandate> {
  const row = await found(deps.db, tenant, id);
  if (row.status === 'pending' || row.status === 'active') await cancelMandateWorkflow(deps.temporal, id);
  return mandateFromRow(await found(deps.db, tenant, id));
}

/**
 * The operator's view of one mandate (the CLI): as the API shows it (never its signature), its
 * merchant, its subscriptions and its events.
 */
export async function mandateForOperator({ db, config }: { db: Db; config: CustomerPageConfig }, id: string) {
  const row = await mandateRowById(db, id);
  if (row === undefined) throw new DomainError('mandate_not_found', `No mandate ${id}.`);
  const subscriptions = await subscriptionsOfMandate(db, id);
  const events = await eventSummariesAbout(db, [id]);
  return {
    mandate: { ...mandateFromRow(row), merchant_id: row.merchant_id },
    subscriptions: subscriptions.map((s) => subscriptionFromRow(s, customerUrlOf(config))),
    events: events.map((e) => ({ id: e.id, type: e.type, created_at: e.created_at.toISOString() })),
  };
}

/**
 * One mandate as the dashboard shows it: as the API has it, what its debits used of today's and this
 * month's counts (Tehran's, as the limits count), its subscriptions and its events, oldest first.
 * Another merchant's (or mode's) is not found.
 */
export async function mandateDetail(
  { db, config }: { db: Db; config: CustomerPageConfig },
  tenant: Tenant,
  id: string,
  now = new Date(),
) {
  const row = await found(db, tenant, id);
  const [usage, subscriptions, events] = await Promise.all([
    mandateUsage(db, id, now),
    subscriptionsOfMandate(db, id),
    eventSummariesAbout(db, [id]),
  ]);
  return {
    mandate: mandateFromRow(row),
    usage,
    subscriptions: subscriptions.map((s) => subscriptionFromRow(s, customerUrlOf(config))),
    events: events.map((e) => ({ id: e.id, type: e.type, created_at: e.created_at.toISOString() })),
  };
}

/**
 * What the bank page shows: the mandate (pending, with its authority), the name of the merchant it is
 * for, and the provider's banks with their signing pages.
 */
export async function bankChoices(
  deps: MandateServiceDeps,
  id: string,
): Promise<
  | { kind: 'choose'; mandate: MandateRow; merchantName: string; banks: (ProviderBank & { url: string })[] }
  | { kind: 'preparing'; mandate: MandateRow }
  | { kind: 'ended'; mandate: MandateRow }
  | { kind: 'not_found' }
> {
  const mandate = await mandateRowById(deps.db, id);
  if (mandate === undefined) return { kind: 'not_found' };
  if (mandate.status !== 'pending') return { kind: 'ended', mandate };
  const provider = deps.providers[mandate.mode];
  // The workflow asks the provider first; the page waits for its authority rather than racing it.
  if (provider === undefined || mandate.provider_authority === null) return { kind: 'preparing', mandate };
  const authority = mandate.provider_authority;
  const [banks, merchant] = await Promise.all([provider.banks(), merchantById(deps.db, mandate.merchant_id)]);
  return {
    kind: 'choose',
    mandate,
    // The mandate's merchant cannot be deleted (a foreign key): the name is there.
    merchantName: merchant?.name ?? '',
    banks: banks.map((b) => ({ ...b, url: provider.signingPageUrl(authority, b.code) })),
  };
}

/**
 * The customer's choice of a bank on the bank page: recorded on the pending mandate (the provider
 * tells no one which bank signed, so this is the gateway's only record of it), then the provider's
 * signing page at that bank. Only a bank the provider lists is taken; the last choice before the
 * signature stands. Undefined when the mandate or the bank is not found.
 */
export async function chooseBank(
  deps: MandateServiceDeps,
  id: string,
  bankCode: string,
): Promise<
  | { kind: 'sign'; url: string }
  | { kind: 'ended'; mandate: MandateRow }
  | { kind: 'preparing'; mandate: MandateRow }
  | { kind: 'not_found' }
> {
  const choice = await bankChoices(deps, id);
  if (choice.kind !== 'choose') return choice;
  const bank = choice.banks.find((b) => b.code === bankCode);
  if (bank === undefined) return { kind: 'not_found' };
  // Signed or declined since the page was read: the customer is told the mandate no longer waits.
  if (!(await recordMandateBank(deps.db, id, { code: bank.code, name: bank.name })))
    return { kind: 'ended', mandate: choice.mandate };
  return { kind: 'sign', url: bank.url };
}

/**
 * The customer's return from the bank: read by the provider, checked against the mandate's own
 * authority (a return of another contract changes nothing), handed to the workflow, and answered
 * with where to send the customer: the merchant's return_url with the mandate's id and status.
 */
export async function mandateReturn(
  deps: MandateServiceDeps,
  id: string,
  query: Record<string, string>,
): Promise<string | undefined> {
  const mandate = await mandateRowById(deps.db, id);
  if (mandate === undefined) return undefined;
  const provider = deps.providers[mandate.mode];
  const back = provider?.parseReturn(query);
  let status = mandate.status;
  if (back !== undefined && back.authority === mandate.provider_authority && mandate.status === 'pending')
    status =
      (await mandateReturned(deps.temporal, id, { signed: back.signed })) ??
      (await mandateRowById(deps.db, id))!.status;
  const url = new URL(mandate.return_url);
  url.searchParams.set('mandate_id', id);
  url.searchParams.set('status', status);
  return url.toString();
}
