/**
 * The bank's token for the customer's way to its page (docs/BANK.md, docs/psps/routing.md): asked of the
 * payment's route when the customer presses Pay, from the first PSP that gives one. Split from the return
 * (bank-return.ts), which keeps the token it answers and judges the bank's callback by it.
 */
import { isCancellation, patched } from '@temporalio/workflow';
import {
  BANK_UNAVAILABLE_REFUSAL,
  type BankTokenResult,
  type PaymentWorkflowInput,
} from '../src/domain/payment-workflow.ts';
import type { BankActivities } from '../activities/bank.ts';
import { refusalFailure } from './failures.ts';
import type { PaymentState } from './payment-state.ts';
import { bankCallsAwaited, bankTokenOnRoute, bankTokenPerPsp, routePlanning } from './proxies.ts';
import { PSP_ROUTING_PATCH, ROUTE_VERIFY_WINDOW_PATCH } from './patches.ts';

/** What the payment's PSP offers, as the bank activity answers it (its connector's PspCapabilities). */
export type PspCapabilitiesAnswer = Awaited<ReturnType<BankActivities['pspCapabilities']>>;

/** What the customer's Pay is refused with when no PSP of the route gave a token: a 503 they may retry. */
export const NO_BANK_ANSWERED = {
  code: BANK_UNAVAILABLE_REFUSAL,
  message: 'No bank can take the payment right now; try again in a moment.',
} as const;

/** A token, and what its PSP offers where the asking answered it too (the flow workflow's one activity). */
export interface TokenForPage {
  token: BankTokenResult;
  offered?: PspCapabilitiesAnswer;
}

/** The payment the token is for: its state (the PSP is recorded there), its input and what the bank charges. */
export interface TokenAsker {
  state: PaymentState;
  input: PaymentWorkflowInput;
  /** What the bank charges the customer (bank-return.ts amountAtBank). */
  charged: number;
  /** The payment flow workflow's: one local activity (bankTokenOnRoute), with no patch marker. */
  flow: boolean;
}

/** The bank's token, asked the way the workflow type (and, on the lifecycle type, its history) asks it. */
export async function askBankToken(asker: TokenAsker, redirect_url: string): Promise<TokenForPage> {
  if (asker.flow) return tokenOnRoute(asker, redirect_url);
  if (patched(PSP_ROUTING_PATCH)) return { token: await routedToken(asker, redirect_url) };
  const { payment } = asker.state;
  return {
    token: await bankCallsAwaited.requestBankToken({
      payment_id: payment.id,
      mode: payment.mode,
      amount: asker.charged,
      redirect_url,
    }),
  };
}

/** The way to the PSP's page: a GET of the url, or (Mellat) a form POST of its fields. */
const wayToPage = (answer: BankTokenResult): BankTokenResult => ({
  token: answer.token,
  url: answer.url,
  ...(answer.method === undefined ? {} : { method: answer.method, fields: answer.fields ?? {} }),
});

/**
 * The payment flow workflow's routedToken, in one local activity that also records the PSP and answers
 * what it offers (bankTokenOnRoute): kept for the return and the verify, so neither asks again.
 */
async function tokenOnRoute({ state, input, charged }: TokenAsker, redirect_url: string): Promise<TokenForPage> {
  const { payment } = state;
  const answer = await bankTokenOnRoute.bankTokenOnRoute({
    payment_id: payment.id,
    mode: payment.mode,
    amount: charged,
    redirect_url,
    verify_window_ms: input.verify_window_ms,
  });
  if (answer === null) throw refusalFailure(NO_BANK_ANSWERED);
  state.tookPsp({ name: answer.psp, terminal_id: answer.terminal_id });
  return { token: wayToPage(answer), offered: answer.capabilities };
}

/**
 * The token from the first PSP of the payment's route that gives one: a PSP whose breaker is open
 * is skipped by the activity without a call, one that fails twice (no answer, a server error, a
 * timeout) or refuses is left for the next. The PSP that gave it is recorded before the token is
 * answered: the customer is sent there, and the payment never moves after.
 */
async function routedToken({ state, input, charged }: TokenAsker, redirect_url: string): Promise<BankTokenResult> {
  const { payment } = state;
  // `amount` is the activities' wire name for the charged sum (activities/bank/routing.ts ChargedAmountOnTheWire).
  const identity = { payment_id: payment.id, mode: payment.mode, amount: charged };
  // The payment's verify window, for the PSPs that take only a window that fits (ROUTE_VERIFY_WINDOW_PATCH).
  const window = patched(ROUTE_VERIFY_WINDOW_PATCH) ? { verify_window_ms: input.verify_window_ms } : {};
  const candidates = await routePlanning.planPaymentRoute({ ...identity, ...window });
  for (const [attempt, candidate] of candidates.entries()) {
    let answer: BankTokenResult;
    try {
      answer = await bankTokenPerPsp.requestBankToken({ ...identity, redirect_url, psp: candidate.psp, attempt });
    } catch (error) {
      if (isCancellation(error)) throw error;
      continue;
    }
    await state.choosePsp({ name: candidate.psp, terminal_id: candidate.terminal_id });
    return wayToPage(answer);
  }
  throw refusalFailure(NO_BANK_ANSWERED);
}
