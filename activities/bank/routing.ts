/**
 * The payment's way to a PSP (docs/psps/routing.md): `planPaymentRoute` answers the PSP terminals a
 * payment may take its token from, in order; `requestBankToken` with a `psp` asks that one, through
 * its circuit breaker (PspHealthStore), and reports to it. Calls without `psp` (workflows started
 * before routing) go to SEP.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { configuredTerminals } from '../../src/psps/clients.ts';
import { isPspName } from '../../src/psps/profiles.ts';
import type { BankToken, PspCapabilities, PspClient, PspName } from '../../src/psps/psp-client.ts';
import { merchantRoute, terminalReservations } from '../../src/db/psp-routes.ts';
import { setPaymentPspWhileCreated } from '../../src/db/payments.ts';
import { defaultRoute, planRoute, pspTakesVerifyWindow } from '../../src/domain/psp-routing.ts';
import { pspCanEnforceCards } from '../../src/domain/card-restriction.ts';
import type { BankCallIdentity } from '../../src/domain/bank-call.ts';
import { TOKEN_FAILURES_FINAL_AT_PSP } from '../../src/domain/payment-workflow.ts';
import type { KeyMode } from '../../src/domain/merchant.ts';
import { pspFailovers, pspTokenRequests } from '../../src/observability/metrics.ts';
import { allowedCardsOf, PSP_UNAVAILABLE, type BankActivityDependencies, type RecordedBanks } from './record-guard.ts';
import type { BankCallKit } from './calls.ts';

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

/**
 * The sum the bank will charge the customer: the record's amount plus the fee a customer-pays payment
 * adds (docs/PAYMENTS.md#who-pays-the-fee), checked against the record as its `charged_amount`. On the
 * wire it keeps its first name, `amount`: the inputs are recorded in the workflows' histories, and a
 * worker of either version may run an activity the other's workflow scheduled, so only the code's name
 * for it, `chargedAmount`, says what it is.
 */
interface ChargedAmountOnTheWire {
  amount: number;
}

/** The token the payment flow workflow's one call gives (bankTokenOnRoute), with the PSP that gave it and what that PSP offers. */
export interface TokenOnRoute extends RoutedBankToken {
  capabilities: PspCapabilities & { psp: PspName };
}

/** Tries per PSP terminal, and the wait between them: bankTokenPerPsp's policy, kept inside one activity. */
const TRIES_PER_PSP = 2;
const RETRY_AFTER_MS = 200;

export function routingActivities(
  { psps, db, health, logger }: Pick<BankActivityDependencies, 'psps' | 'db' | 'health' | 'logger'>,
  { guard, clientFor }: RecordedBanks,
  { loggedBankCall }: BankCallKit,
) {
  /** A token at PSP `psp` through its breaker; the outcome is reported to the breaker and counted. */
  async function routedToken(
    bank: PspClient,
    psp: PspName,
    mode: KeyMode,
    payment_id: string,
    chargedAmount: number,
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
        { payment_id, mode, amount: chargedAmount, psp, terminal_id: bank.terminalId, probe },
        () => bank.requestToken(payment_id, chargedAmount, redirect_url),
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

  /**
   * The PSP terminals the payment may take its token from, in the order to try them
   * (src/domain/psp-routing.ts): the merchant's route for the record's mode, or every configured
   * PSP of the mode, filtered by amount and by the terminals reserved for other merchants, weighed
   * by the payment's id, open breakers last. Only
   * terminals this worker has a client for are answered.
   */
  async function planPaymentRoute({
    payment_id,
    mode,
    amount: chargedAmount,
    verify_window_ms,
  }: Omit<BankCallIdentity, 'psp'> & ChargedAmountOnTheWire & { verify_window_ms?: number }): Promise<
    PaymentRouteCandidate[]
  > {
    // The terminals' limits apply to what the bank will charge.
    const record = await guard.read(db, 'planPaymentRoute', { payment_id, mode, charged_amount: chargedAmount });
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
      amount: chargedAmount,
      paymentId: payment_id,
      merchantId: record.merchant_id,
      reservations: await terminalReservations(db),
      breakerOf: (psp, terminalId) =>
        states.find((s) => s.psp === psp && s.terminal_id === terminalId)?.state ?? 'closed',
    });
    return candidates.flatMap((c) =>
      isPspName(c.psp) ? [{ psp: c.psp, terminal_id: c.terminal_id, breaker: c.breaker }] : [],
    );
  }

  /**
   * A token for the bank's page, and the page's address for the customer. With `psp` (routed
   * payments): at that PSP, through its breaker, saying which terminal gave it; `attempt` is the
   * candidate's place in the route (0: the first), for the failover count. Without: SEP's, as
   * before routing.
   */
  async function requestBankToken({
    payment_id,
    mode,
    amount: chargedAmount,
    redirect_url,
    psp,
    attempt,
  }: BankCallIdentity & ChargedAmountOnTheWire & { redirect_url: string; attempt?: number }): Promise<
    BankToken | RoutedBankToken
  > {
    // Not a claim the guard checks: a record naming another PSP here is a worker that died after
    // recording the PSP and before its workflow task completed, so the customer was never answered
    // with that token; this PSP is passed over (the route reaches the recorded one), with no alert.
    const bank = await clientFor('requestBankToken', { payment_id, mode, charged_amount: chargedAmount }, psp);
    if (psp === undefined)
      return loggedBankCall('token', { payment_id, mode, amount: chargedAmount }, () =>
        bank.requestToken(payment_id, chargedAmount, redirect_url),
      );
    return routedToken(bank, psp, mode, payment_id, chargedAmount, redirect_url, attempt ?? 0);
  }

  /** One PSP terminal of the route, asked as bankTokenPerPsp asks it: twice at most, a refusal or an open breaker once. */
  async function tokenAtTerminal(
    claim: Omit<BankCallIdentity, 'psp'> & ChargedAmountOnTheWire & { redirect_url: string },
    psp: PspName,
    attempt: number,
  ): Promise<{ token: RoutedBankToken; bank: PspClient }> {
    const { payment_id, mode, amount: chargedAmount, redirect_url } = claim;
    for (let tried = 1; ; tried++) {
      try {
        const bank = await clientFor('requestBankToken', { payment_id, mode, charged_amount: chargedAmount }, psp);
        return { token: await routedToken(bank, psp, mode, payment_id, chargedAmount, redirect_url, attempt), bank };
      } catch (error) {
        const final =
          error instanceof ApplicationFailure &&
          (error.nonRetryable || TOKEN_FAILURES_FINAL_AT_PSP.includes(error.type ?? ''));
        if (final || tried >= TRIES_PER_PSP) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
      }
    }
  }

  return {
    planPaymentRoute,
    requestBankToken,

    /**
     * The payment flow workflow's way to the bank's page, in one local activity (docs/BENCHMARKS.md, the
     * history budget): the route planned (planPaymentRoute), each PSP terminal asked in turn as the
     * lifecycle workflow asks it with one activity each (requestBankToken, twice at most; a refusal, an
     * open breaker or a record naming another PSP passes to the next at once), and the terminal that gave
     * the token recorded on the payment before the token is answered (recordPaymentPsp's write), with
     * what its PSP offers (pspCapabilities' answer), which the workflow keeps for the return and the
     * verify. Null: no PSP of the route gave a token. Run again after a lost worker, it plans again and
     * passes over a PSP other than the one the record names, as the lifecycle workflow's steps do.
     */
    async bankTokenOnRoute(
      claim: Omit<BankCallIdentity, 'psp'> &
        ChargedAmountOnTheWire & { redirect_url: string; verify_window_ms: number },
    ): Promise<TokenOnRoute | null> {
      const candidates = await planPaymentRoute(claim);
      for (const [attempt, candidate] of candidates.entries()) {
        let answer: { token: RoutedBankToken; bank: PspClient };
        try {
          answer = await tokenAtTerminal(claim, candidate.psp, attempt);
        } catch {
          // Counted and logged by routedToken; the next PSP of the route may give one.
          continue;
        }
        await setPaymentPspWhileCreated(db, claim.payment_id, candidate.psp, candidate.terminal_id);
        return {
          ...answer.token,
          psp: candidate.psp,
          terminal_id: candidate.terminal_id,
          capabilities: { ...answer.bank.capabilities, psp: answer.bank.name },
        };
      }
      return null;
    },
  };
}
