/**
 * Bank activities: the payment workflow's calls to the bank behind it
 * through its PSP client (src/psps/psp-client.ts, docs/BANK.md). Every bank operation is
 * idempotent by its operation key (confirm/settle/reverse by payment, refund
 * by refund id), so Temporal may retry these as often as it needs; every
 * outcome is logged here and lands in the workflow's history as the
 * activity's result.
 *
 * Several PSPs (docs/psps/routing.md): `planPaymentRoute` answers the PSP
 * terminals a payment may take its token from, in order; `requestBankToken`
 * with a `psp` asks that one, through its circuit breaker (PspHealthStore),
 * and reports to it. Every later call goes to the PSP the record names: the
 * one that took the payment; a workflow that names another is refused.
 * Calls without `psp` (workflows started before routing) go to SEP.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { configuredTerminals, pspClient, type PspClients } from '../src/psps/clients.ts';
import { isAllowedCard, keyedCardHash } from '../src/psps/card-hash.ts';
import type { PspHealthStore } from '../src/adapters/psp/health.ts';
import { ORIGINAL_PSP, isPspName } from '../src/psps/profiles.ts';
import {
  BankRefusalError,
  type BankToken,
  type Confirmation,
  type Inquiry,
  type PspCapabilities,
  type PspClient,
  type PspName,
} from '../src/psps/psp-client.ts';
import type { Db } from '../src/db/database.ts';
import { paymentStatusById } from '../src/db/payments.ts';
import { claimSale, type SaleCard } from '../src/db/sale-claims.ts';
import { merchantRoute, terminalReservations } from '../src/db/psp-routes.ts';
import { defaultRoute, planRoute, pspTakesVerifyWindow } from '../src/domain/psp-routing.ts';
import { MASKED_CARD_PAN_PATTERN, type ConfirmedAtBank } from '../src/domain/bank-confirmation.ts';
import type { ConfirmationRefusalReason } from '../src/domain/confirmation-refusal.ts';
import { pspCanEnforceCards } from '../src/domain/card-restriction.ts';
import { cardHashKey, pspUrlSetting, type Config } from '../src/config.ts';
import type { Logger } from '../src/logger.ts';
import { pspConfirmationsRefused, pspFailovers, pspTokenRequests } from '../src/observability/metrics.ts';
import { paymentRecordGuard, type PaymentClaim, type RecordedIdentity } from './payment-record.ts';
import { recordedChargedAmount } from '../src/domain/payment.ts';

export interface BankActivityDependencies {
  /** The PSP clients per mode and name: the simulator for test, the PSPs for live (absent: not configured). */
  psps: PspClients;
  /** The payment records: the bank is chosen by the record's mode and PSP, never by the workflow's word. */
  db: Db;
  /** Each PSP terminal's circuit breaker, shared by every process. */
  health: PspHealthStore;
  logger: Logger;
  /** The key of the allowed cards' stored hashes (src/psps/card-hash.ts). */
  config: Pick<Config, 'CARD_HASH_KEY'>;
}

type Mode = 'test' | 'live';

/** A PSP terminal a payment may be sent to, in the order to try them. */
export interface PaymentRouteCandidate {
  psp: PspName;
  terminal_id: string;
  breaker: 'closed' | 'half_open' | 'open';
}

/** A PSP's token, and which PSP terminal gave it. */
export interface RoutedBankToken extends BankToken {
  psp: PspName;
  terminal_id: string;
}

/** The failure types of a token request the next PSP of the route should be asked instead. */
export const PSP_UNAVAILABLE = 'psp_unavailable';

/** The record's allowed cards' keyed hashes; null when any card may pay. */
const allowedCardsOf = (recorded: RecordedIdentity): string[] | null =>
  recorded.allowed_card_hashes === undefined || recorded.allowed_card_hashes === null
    ? null
    : (JSON.parse(recorded.allowed_card_hashes) as string[]);

const MASKED_CARD_PAN = new RegExp(MASKED_CARD_PAN_PATTERN);
const SHA256_HEX = /^[0-9A-Fa-f]{64}$/;

export function createBankActivities({ psps, db, health, logger, config }: BankActivityDependencies) {
  const guard = paymentRecordGuard(logger);
  /**
   * Claims the PSP's sale `ref_num` at `bank` for the payment (src/db/sale-claims.ts) and answers the
   * payment that holds it: this one, or another that claimed it first. The claim is the one guard of
   * "one sale, one payment": two returns presenting one sale at the same instant are decided by the
   * table's primary key. `card`: what the PSP said of the card that paid (kept for a refund to it); a
   * masked card only in its masked shape, the PSP's hash only keyed.
   */
  const saleHolder = (
    bank: PspClient,
    mode: Mode,
    payment_id: string,
    ref_num: string,
    card: { card_pan?: string | null; card_sha256?: string } = {},
  ): Promise<string> => {
    const kept: SaleCard = {
      card_pan:
        card.card_pan !== undefined && card.card_pan !== null && MASKED_CARD_PAN.test(card.card_pan)
          ? card.card_pan
          : null,
      card_hash:
        card.card_sha256 !== undefined && SHA256_HEX.test(card.card_sha256)
          ? keyedCardHash(cardHashKey(config), card.card_sha256)
          : null,
    };
    return claimSale(
      db,
      { mode, psp: bank.name, terminal_id: bank.terminalId, reference_id: ref_num },
      payment_id,
      kept,
    );
  };
  /**
   * The bank of the payment as recorded: a workflow that claims another mode (or amount, or PSP) than
   * the record's is refused before any bank is asked (activities/payment-record.ts), so a live payment
   * never reaches the simulator however its workflow was started, and a payment sent to one PSP is
   * never asked about at another. The PSP is the record's once it has one, else the claim's, else SEP.
   */
  const clientFor = async (activity: string, claim: PaymentClaim, tokenAt?: PspName): Promise<PspClient> =>
    (await recordedBank(activity, claim, tokenAt)).bank;
  const recordedBank = async (
    activity: string,
    claim: PaymentClaim,
    tokenAt?: PspName,
  ): Promise<{ bank: PspClient; recorded: Awaited<ReturnType<typeof guard.read>> }> => {
    const recorded = await guard.read(db, activity, claim);
    if (tokenAt !== undefined && recorded.psp !== undefined && recorded.psp !== null && recorded.psp !== tokenAt) {
      logger.warn(
        { payment_id: claim.payment_id, psp: tokenAt, recorded_psp: recorded.psp },
        'bank token: the record names another PSP; passed over',
      );
      throw ApplicationFailure.create({
        type: PSP_UNAVAILABLE,
        message: `the payment's record names PSP ${recorded.psp}`,
        nonRetryable: true,
      });
    }
    // A payment recorded before payments named their PSP is SEP's (ORIGINAL_PSP).
    const name = recorded.psp ?? tokenAt ?? claim.psp ?? ORIGINAL_PSP;
    const chosen = isPspName(name) ? pspClient(psps, recorded.mode, name) : undefined;
    if (chosen === undefined) {
      const setting = isPspName(name) ? ` (${pspUrlSetting(name, recorded.mode)})` : '';
      throw ApplicationFailure.nonRetryable(
        `PSP ${name} is not configured for ${recorded.mode} payments${setting}.`,
        'bank_not_configured',
      );
    }
    return { bank: chosen, recorded };
  };
  const pspOf = (psp: PspName | undefined) => (psp === undefined ? {} : { psp });
  /** The PSP's operation `what` (bound to its client); a PSP without it is asked nothing: a non-retryable `operation_not_offered`. */
  function offered<A extends unknown[], R>(
    bank: PspClient,
    what: string,
    operation: ((...args: A) => Promise<R>) | undefined,
  ): (...args: A) => Promise<R> {
    if (operation === undefined)
      throw ApplicationFailure.create({
        type: 'operation_not_offered',
        message: `PSP ${bank.name} has no ${what} operation`,
        nonRetryable: true,
      });
    return operation;
  }

  /** Makes the bank call and logs its outcome; a refusal by the bank becomes a non-retryable failure typed `bank_refused`. */
  async function loggedBankCall<T>(what: string, fields: Record<string, unknown>, call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      logger.info({ ...fields, bank_call: what, result }, `bank ${what}: done`);
      return result;
    } catch (error) {
      if (error instanceof BankRefusalError) {
        logger.warn({ ...fields, bank_call: what, result_code: error.code }, `bank ${what}: refused`);
        throw ApplicationFailure.create({
          type: 'bank_refused',
          message: `${error.message} (${error.code})`,
          nonRetryable: true,
        });
      }
      logger.warn(
        { ...fields, bank_call: what, err: error instanceof Error ? error.message : String(error) },
        `bank ${what}: no answer, to be retried`,
      );
      throw error;
    }
  }

  /** A token at PSP `psp` through its breaker; the outcome is reported to the breaker and counted. */
  async function routedToken(
    bank: PspClient,
    psp: PspName,
    mode: Mode,
    payment_id: string,
    amount: number,
    redirect_url: string,
    attempt: number,
  ): Promise<RoutedBankToken> {
    const terminal = { mode, psp, terminal_id: bank.terminalId };
    const { admitted, probe } = await health.admit(terminal);
    if (!admitted) {
      pspTokenRequests.inc({ psp, outcome: 'skipped' });
      logger.info({ payment_id, mode, psp, terminal_id: bank.terminalId }, 'bank token: breaker open, PSP skipped');
      throw ApplicationFailure.create({
        type: PSP_UNAVAILABLE,
        message: `PSP ${psp} is unavailable (circuit breaker open)`,
        nonRetryable: true,
      });
    }
    try {
      const answer = await loggedBankCall(
        'token',
        { payment_id, mode, amount, psp, terminal_id: bank.terminalId, probe },
        () => bank.requestToken(payment_id, amount, redirect_url),
      );
      await health.recordSuccess(terminal);
      pspTokenRequests.inc({ psp, outcome: 'ok' });
      if (attempt > 0) pspFailovers.inc();
      return { ...answer, psp, terminal_id: bank.terminalId };
    } catch (error) {
      if (error instanceof ApplicationFailure && error.type === 'bank_refused') {
        // The PSP answered: it is up, but will not take this payment; the next PSP may.
        pspTokenRequests.inc({ psp, outcome: 'refused' });
        throw error;
      }
      // No answer, a server error or a timeout: one failure for the breaker; Temporal retries within the workflow's bound.
      pspTokenRequests.inc({ psp, outcome: 'failed' });
      const state = await health.recordFailure(terminal, error instanceof Error ? error.message : String(error));
      if (state === 'open') logger.warn({ mode, psp, terminal_id: bank.terminalId }, 'PSP circuit breaker open');
      throw error;
    }
  }

  return {
    /**
     * What the payment's PSP offers (PspCapabilities: capture at verify or at settle, its reversal
     * window, refund, inquiry, daily report), as its connector declares it: the PSP the record names,
     * else the claim's. The workflows ask it once where their path depends on it (under a patch), so
     * the answer lands in their history and replays.
     */
    async pspCapabilities({
      payment_id,
      mode,
      psp,
    }: {
      payment_id: string;
      mode: Mode;
      psp?: PspName;
    }): Promise<PspCapabilities & { psp: PspName }> {
      const bank = await clientFor('pspCapabilities', { payment_id, mode, ...pspOf(psp) });
      return { ...bank.capabilities, psp: bank.name };
    },

    /**
     * The PSP terminals the payment may take its token from, in the order to try them
     * (src/domain/psp-routing.ts): the merchant's route for the record's mode, or every configured
     * PSP of the mode, filtered by amount and by the terminals reserved for other merchants, weighed
     * by the payment's id, open breakers last. Only
     * terminals this worker has a client for are answered.
     */
    async planPaymentRoute({
      payment_id,
      mode,
      amount,
      verify_window_ms,
    }: {
      payment_id: string;
      mode: Mode;
      amount: number;
      verify_window_ms?: number;
    }): Promise<PaymentRouteCandidate[]> {
      // `amount` is what the bank will charge (amount + fee when the customer pays it): the terminals' limits apply to it.
      const record = await guard.read(db, 'planPaymentRoute', { payment_id, mode, charged_amount: amount });
      const configured = configuredTerminals(psps, record.mode);
      const set = await merchantRoute(db, record.merchant_id, record.mode);
      const usable = set.filter((e) => configured.some((c) => c.psp === e.psp && c.terminal_id === e.terminal_id));
      if (usable.length < set.length)
        logger.warn(
          { payment_id, merchant_id: record.merchant_id, mode },
          'route names PSP terminals this worker has no client for: skipped',
        );
      const planned = set.length === 0 ? defaultRoute(configured) : usable;
      // A payment restricted to cards goes only where the PSP's confirmation names the card (docs/psps/README.md).
      const restricted = allowedCardsOf(record) !== null;
      const cardsHeld = restricted ? planned.filter((e) => pspCanEnforceCards(e.psp)) : planned;
      if (restricted && cardsHeld.length < planned.length)
        logger.info({ payment_id, mode }, 'payment restricted to cards: PSPs that do not name the card skipped');
      // A PSP that gives back by itself what nobody verifies, and is asked to verify only at the merchant's
      // verify (Sadad), takes only a payment whose verify window ends before it gives it back.
      const route =
        verify_window_ms === undefined
          ? cardsHeld
          : cardsHeld.filter((e) => pspTakesVerifyWindow(e.psp, verify_window_ms));
      if (route.length < cardsHeld.length)
        logger.info(
          { payment_id, mode, verify_window_ms },
          "payment's verify window outlasts a PSP's own return of unverified payments: that PSP skipped",
        );
      const states = await health.states(
        route.map((e) => ({ mode: record.mode, psp: e.psp, terminal_id: e.terminal_id })),
      );
      const candidates = planRoute({
        route,
        amount,
        paymentId: payment_id,
        merchantId: record.merchant_id,
        reservations: await terminalReservations(db),
        breakerOf: (psp, terminalId) =>
          states.find((s) => s.psp === psp && s.terminal_id === terminalId)?.state ?? 'closed',
      });
      return candidates.flatMap((c) =>
        isPspName(c.psp) ? [{ psp: c.psp, terminal_id: c.terminal_id, breaker: c.breaker }] : [],
      );
    },

    /**
     * A token for the bank's page, and the page's address for the customer. With `psp` (routed
     * payments): at that PSP, through its breaker, saying which terminal gave it; `attempt` is the
     * candidate's place in the route (0: the first), for the failover count. Without: SEP's, as
     * before routing.
     */
    async requestBankToken({
      payment_id,
      mode,
      amount,
      redirect_url,
      psp,
      attempt,
    }: {
      payment_id: string;
      mode: Mode;
      amount: number;
      redirect_url: string;
      psp?: PspName;
      attempt?: number;
    }): Promise<BankToken | RoutedBankToken> {
      // Not a claim the guard checks: a record naming another PSP here is a worker that died after
      // recording the PSP and before its workflow task completed, so the customer was never answered
      // with that token; this PSP is passed over (the route reaches the recorded one), with no alert.
      // `amount` is what the customer is charged: the record's amount plus the fee a customer-pays payment adds.
      const bank = await clientFor('requestBankToken', { payment_id, mode, charged_amount: amount }, psp);
      if (psp === undefined)
        return loggedBankCall('token', { payment_id, mode, amount }, () =>
          bank.requestToken(payment_id, amount, redirect_url),
        );
      return routedToken(bank, psp, mode, payment_id, amount, redirect_url, attempt ?? 0);
    },

    /**
     * Asks the bank whether it holds the customer's payment under `ref_num` (VerifyTransaction); the
     * workflow judges the answer. The connector is given the recorded charged amount (never the
     * workflow's word): a PSP that answers a code alone confirms the sale it bound to that amount at
     * the token.
     */
    async confirmAtBank({
      payment_id,
      mode,
      ref_num,
      psp,
    }: {
      payment_id: string;
      mode: Mode;
      ref_num: string;
      psp?: PspName;
    }): Promise<Exclude<Confirmation, { result: 'confirmed' }> | (ConfirmedAtBank & { terminal: string })> {
      const { bank: bankFor, recorded: record } = await recordedBank('confirmAtBank', {
        payment_id,
        mode,
        ...pspOf(psp),
      });
      const answer = await loggedBankCall('confirm', { payment_id, mode, ref_num }, () =>
        bankFor.confirm(payment_id, ref_num, recordedChargedAmount(record)),
      );
      if (answer.result !== 'confirmed') return answer;
      // The PSP's hash of the card stays here: the workflow's history keeps only whether it may pay.
      const { card_sha256: cardSha256, ...confirmed } = answer as ConfirmedAtBank & {
        terminal: string;
        card_sha256?: string;
      };
      // A sale the PSP names as another of our payments (its ResNum) is that payment's to claim: the
      // workflow refuses it (`other_payment`) and reverses nothing. Any other confirmed sale is claimed
      // for this payment before the workflow may record it paid; one another payment holds is refused
      // here, whatever the PSP's verify said (SEP's answers a repeat in full and names no payment): that
      // money is the other payment's, and nothing was captured for this one.
      if (answer.res_num === null || answer.res_num === payment_id) {
        const holder = await saleHolder(bankFor, record.mode, payment_id, answer.ref_num, {
          card_pan: answer.card_pan,
          ...(cardSha256 === undefined ? {} : { card_sha256: cardSha256 }),
        });
        if (holder !== payment_id) {
          logger.warn(
            { payment_id, mode, other_payment_id: holder },
            'bank confirm: the sale belongs to another payment',
          );
          return { result: 'refused', code: 2, description: 'the reference already paid another payment' };
        }
      }
      const allowed = allowedCardsOf(record);
      const verdict = allowed === null ? {} : { card_allowed: isAllowedCard(cardHashKey(config), allowed, cardSha256) };
      if (verdict.card_allowed === false)
        logger.warn(
          { payment_id, mode, card_pan: confirmed.card_pan },
          'bank confirm: paid with a card the payment does not allow',
        );
      return { ...confirmed, terminal_matches: answer.terminal === bankFor.terminalId, ...verdict };
    },

    /** Asks the bank what became of the payment (by its id, the ResNum): the only word a failed or canceled return is recorded on. */
    async inquireAtBank({
      payment_id,
      mode,
      psp,
      ref_num,
      token,
    }: {
      payment_id: string;
      mode: Mode;
      psp?: PspName;
      ref_num?: string;
      token?: string;
    }): Promise<Inquiry> {
      const bank = await clientFor('inquireAtBank', { payment_id, mode, ...pspOf(psp) });
      const inquire = offered(bank, 'inquire', bank.inquire?.bind(bank));
      return loggedBankCall('inquire', { payment_id, mode }, () =>
        inquire(payment_id, { ref_num: ref_num ?? '', token: token ?? '' }),
      );
    },

    /**
     * Captures the payment at the PSP at the merchant's verify: its settle, or, where capture is
     * `merchant_verify` (Sadad), its verify, held to the recorded charged amount (never the workflow's word).
     */
    async settleAtBank({
      payment_id,
      mode,
      ref_num,
      psp,
    }: {
      payment_id: string;
      mode: Mode;
      ref_num: string;
      psp?: PspName;
    }) {
      const { bank, recorded: record } = await recordedBank('settleAtBank', { payment_id, mode, ...pspOf(psp) });
      const settle = offered(bank, 'settle', bank.settle?.bind(bank));
      return loggedBankCall('settle', { payment_id, mode, ref_num }, () =>
        settle(payment_id, ref_num, recordedChargedAmount(record)),
      );
    },

    /**
     * Gives a paid payment's money back at the PSP. Where capture is `merchant_verify` (Sadad: no
     * reversal) and the payment is still `paid`, the PSP was never asked to verify it: nothing is called,
     * since the PSP gives back by itself a payment nobody verifies (docs/psps/sadad.md); any other
     * reverse there (a verified payment's) is the connector's to refuse.
     */
    async reverseAtBank({
      payment_id,
      mode,
      ref_num,
      psp,
    }: {
      payment_id: string;
      mode: Mode;
      ref_num: string;
      psp?: PspName;
    }) {
      const bank = await clientFor('reverseAtBank', { payment_id, mode, ...pspOf(psp) });
      if (bank.capabilities.capture === 'merchant_verify') {
        const row = await paymentStatusById(db, payment_id);
        if (row?.status === 'paid') {
          logger.info(
            { payment_id, mode, psp: bank.name, ref_num, bank_call: 'reverse' },
            'bank reverse: nothing to call; the PSP gives back by itself a payment nobody verified',
          );
          return { ref_num, result_code: 0 };
        }
      }
      return loggedBankCall('reverse', { payment_id, mode, ref_num }, () => bank.reverse(payment_id, ref_num));
    },

    /**
     * A confirmation the workflow refused (docs/PAYMENTS.md#a-confirmation-the-gateway-refuses): the PSP's
     * verify already did its work, so the sale is reversed at once, keyed by payment (`reverse:<payment>`:
     * a retry or a replay reverses once), counted and logged here, never in the workflow. Not reversed:
     * a sale the answer names as another of our payments (ResNum), or whose claim another payment holds
     * (src/db/sale-claims.ts): that money is the other payment's, and reversing it here would undo a
     * payment its merchant sees paid. A PSP that refuses the reversal
     * (its window passed, say) is answered as such: the payment is still recorded, and the alert says
     * money is held at the PSP. No answer: thrown, and retried until the PSP answers.
     */
    async reverseRefusedConfirmation({
      payment_id,
      mode,
      ref_num,
      reason,
      psp,
    }: {
      payment_id: string;
      mode: Mode;
      ref_num: string;
      reason: ConfirmationRefusalReason;
      psp?: PspName;
    }): Promise<{ reversal: 'reversed' | 'reversal_refused' | 'not_reversed' }> {
      const bank = await clientFor('reverseRefusedConfirmation', { payment_id, mode, ...pspOf(psp) });
      const fields = { payment_id, mode, psp: bank.name, ref_num, reason };
      // Reversed only while this payment holds the sale's claim (confirmAtBank took it, or takes it now
      // for a confirmation made before claims existed): a sale another payment holds is never undone
      // on this payment's word, nor one the PSP names as another of our payments.
      const holder =
        reason === 'other_payment' ? 'named by the answer' : await saleHolder(bank, mode, payment_id, ref_num);
      const another = holder === payment_id ? undefined : { id: holder };
      const counted = (reversal: 'reversed' | 'reversal_refused' | 'not_reversed') => {
        pspConfirmationsRefused.inc({ psp: bank.name, reason, reversal });
        return { reversal };
      };
      if (another !== undefined) {
        logger.error(
          { ...fields, other_payment_id: another.id },
          "bank confirm refused: the PSP's sale is another payment's; not reversed",
        );
        return counted('not_reversed');
      }
      logger.warn(
        fields,
        'bank confirm refused: the confirmation does not match the payment; reversing the sale at the PSP',
      );
      try {
        await loggedBankCall('reverse', fields, () => bank.reverse(payment_id, ref_num));
      } catch (error) {
        if (error instanceof ApplicationFailure && error.type === 'bank_refused') {
          logger.error(fields, 'bank confirm refused: the PSP refused to reverse the sale; money is held at the PSP');
          return counted('reversal_refused');
        }
        throw error;
      }
      return counted('reversed');
    },

    async refundAtBank({
      payment_id,
      mode,
      ref_num,
      refund_id,
      amount,
      psp,
    }: {
      payment_id: string;
      mode: Mode;
      ref_num: string;
      refund_id: string;
      amount: number;
      psp?: PspName;
    }) {
      const bank = await clientFor('refundAtBank', { payment_id, mode, ...pspOf(psp) });
      const refund = offered(bank, 'refund', bank.refund?.bind(bank));
      return loggedBankCall('refund', { payment_id, mode, ref_num, refund_id, amount }, () =>
        refund(payment_id, ref_num, refund_id, amount),
      );
    },
  };
}

export type BankActivities = ReturnType<typeof createBankActivities>;
