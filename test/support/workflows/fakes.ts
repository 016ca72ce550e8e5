/**
 * Fake activities for the workflow tests: plain functions under the real
 * activities' names that record every call in memory, answer like a healthy
 * MySQL and sandbox bank by default, and can be told to answer otherwise
 * (slowly, or with a failure) one test at a time.
 */
import type { createActivities } from '../../../activities/index.ts';
import type { BankOutcome } from '../../../src/domain/payment.ts';
import { PRUNE_ORDER } from '../../../src/domain/retention.ts';
import { ApplicationFailure } from '@temporalio/common';
import { TOKEN_FAILURES_FINAL_AT_PSP } from '../../../src/domain/payment-workflow.ts';

/** Every activity the worker registers, by name. */
type PaymentActivities = ReturnType<typeof createActivities>;
type Name = keyof PaymentActivities;
type Input<K extends Name> = Parameters<PaymentActivities[K]>[0];
type Output<K extends Name> = Awaited<ReturnType<PaymentActivities[K]>>;
export type Behaviour<K extends Name> = (input: Input<K>, call: number) => Promise<Output<K>>;
type Behaviours = { [K in Name]: Behaviour<K> };

export const CAPTURE = { reference_id: '4711000001', rrn: '600000000001', card_pan: '603799******1234' };
export const BANK_OPERATION = { ref_num: '4711000001', result_code: 0 };

/** A PSP whose separate settle captures, with an inquiry (as Behpardakht's references show it). */
export const SETTLE_CAPABILITIES = {
  capture: 'settle',
  reversalWindowMs: 180 * 60_000,
  unverifiedReversalMs: 20 * 60_000,
  refund: 'partial',
  inquiry: true,
  dailyReport: false,
} as const;
/** A PSP whose verify at the return captures, with no inquiry, refund or report (as SEP's references show it). */
export const SEP_CAPABILITIES = {
  capture: 'verify',
  reversalWindowMs: 50 * 60_000,
  unverifiedReversalMs: 30 * 60_000,
  refund: 'none',
  inquiry: false,
  dailyReport: false,
} as const;

/** A PSP whose verify is final with no reversal, asked only at the merchant's verify; it gives back what nobody verifies in 15 minutes (as Sadad's references show it). */
export const MERCHANT_VERIFY_CAPABILITIES = {
  capture: 'merchant_verify',
  reversalWindowMs: 0,
  unverifiedReversalMs: 15 * 60_000,
  refund: 'none',
  inquiry: false,
  dailyReport: false,
} as const;

/** Every activity the worker registers, answering as the real ones do when all is well. */
const HEALTHY: Behaviours = {
  announcePayment: async () => undefined,
  recordTransition: async () => undefined,
  recordRefund: async ({ refund }) => ({ status: refund.status, held_for: refund.held_for ?? null }),
  recordLateReturn: async () => undefined,
  // Answered from the writes each FakeActivities received (its constructor sets it).
  readPaymentForRefund: async ({ payment_id }) => {
    throw new Error(`no record of payment ${payment_id}`);
  },
  deliverWebhook: async () => 'succeeded',
  disableExhaustedEndpoint: async () => true,
  deleteExpiredIdempotencyKeys: async () => 0,
  // One PSP, as the default route of a worker with only the simulator configured.
  planPaymentRoute: async () => [{ psp: 'sep', terminal_id: '11223344', breaker: 'closed' }],
  merchantLiveStanding: async () => ({ live: true }),
  recordPaymentPsp: async () => undefined,
  // Answered from the fakes of the steps it is made of (its constructor sets it).
  bankTokenOnRoute: async () => {
    throw new Error('bankTokenOnRoute is composed by FakeActivities');
  },
  requestBankToken: async ({ payment_id, psp }) => ({
    ...(psp === undefined ? {} : { psp, terminal_id: '11223344' }),
    token: `token${payment_id.replace(/-/g, '')}`,
    url: `https://bank.example/OnlinePG/SendToken?token=${payment_id}`,
    method: 'GET',
    fields: {},
  }),
  // The bank as the simulator answers a customer who paid: RefNum "delay…" is in progress on its first confirm.
  confirmAtBank: async ({ payment_id, ref_num }) =>
    ref_num.startsWith('9') && !answeredInProgress.has(ref_num) && answeredInProgress.add(ref_num) !== undefined
      ? { result: 'in_progress' }
      : {
          result: 'confirmed',
          ref_num,
          res_num: payment_id,
          amount: Number(fakeAmounts.get(payment_id) ?? 0),
          terminal: '11223344',
          terminal_matches: true,
          rrn: CAPTURE.rrn,
          card_pan: CAPTURE.card_pan,
        },
  // The bank's inquiry answers the customer's choice the pay helper made; no choice: still open.
  inquireAtBank: async ({ payment_id }) => ({ standing: INQUIRY_STANDING[fakeOutcomes.get(payment_id) ?? 'none'] }),
  // A PSP that captures at settle and answers inquiries (Behpardakht's shape): the paths every test took
  // before capabilities; a test of SEP's shape says so with `on('pspCapabilities', …)` (SEP_CAPABILITIES).
  pspCapabilities: async ({ psp }) => ({ psp: psp ?? 'sep', ...SETTLE_CAPABILITIES }),
  reverseRefusedConfirmation: async () => ({ reversal: 'reversed' }),
  settleAtBank: async ({ ref_num }) => ({ ref_num, result_code: 0 }),
  reverseAtBank: async ({ ref_num }) => ({ ref_num, result_code: 0 }),
  refundAtBank: async ({ ref_num }) => ({ ref_num, result_code: 0 }),
  // A refund's transfer to the IBAN its merchant gave: the bank makes it.
  payRefundToIban: async () => ({ bank_reference: '600000000011' }),
  recordOnboarding: async () => undefined,
  recordDomain: async () => undefined,
  recordDocumentsSubmitted: async () => true,
  reviewReminderDelay: async () => 24 * 3_600_000,
  raiseReviewReminder: async () => undefined,
  sendDecisionEmail: async () => undefined,
  // Settlement: no merchant to settle, unless a test says otherwise; a payout the bank makes.
  settlementCandidates: async () => ({ cutoff: '2026-01-01T00:00:00.000Z', date: '2026-01-01', merchant_ids: [] }),
  makeMerchantSettlement: async () => ({ made: { net: 1_000_000, attempt: 1 } }),
  payOutSettlement: async () => ({ paid: true, bank_reference: '600000000009' }),
  recordPayout: async () => undefined,
  payOutBeneficiary: async () => ({ paid: true, bank_reference: '600000000010' }),
  // A settlement without beneficiaries, unless a test says otherwise.
  pendingBeneficiaryTransfers: async () => [],
  // The stuck-records sweep: nothing stuck, unless a test says otherwise.
  sendOnPendingRefunds: async () => 0,
  startMissingDeliveries: async () => 0,
  askUnansweredPayouts: async () => 0,
  // Retention: the real plan, and nothing past its period.
  retentionPlan: async () => [...PRUNE_ORDER],
  pruneRetentionBatch: async () => 0,
  // Mandates: asked, and signed when the customer says so.
  requestMandateAtProvider: async () => 'requested',
  activateMandate: async () => 'active',
  endMandate: async ({ to }) => to,
  cancelMandateAtProvider: async () => undefined,
  endMandateSubscriptions: async () => 0,
  // Debits: named, then taken by the provider.
  prepareDebitAtProvider: async () => ({ outcome: 'prepared' }),
  takeDebitAtProvider: async () => ({ outcome: 'taken', reference: '201' }),
  releaseDebitReservation: async () => undefined,
  admitSubscriptionCharge: async ({ subscription_id, period, attempt }) => ({
    kind: 'refused',
    code: `no debit faked for ${subscription_id}:${period}:${attempt}`,
  }),
  recordSubscription: async () => undefined,
  emailSubscriptionPastDue: async () => undefined,
};

/** How `name` answers when all is well: for a behaviour that fails first, then answers as usual. */
export const healthy = <K extends Name>(name: K): Behaviour<K> => HEALTHY[name];

const answeredInProgress = new Set<string>();

/** The customer's choice at the fake bank, by payment id (set by the tests' pay helper). */
export const fakeOutcomes = new Map<string, BankOutcome>();
const INQUIRY_STANDING = {
  success: 'succeeded',
  delay: 'succeeded',
  failure: 'failed',
  cancel: 'canceled',
  none: 'open',
} as const;

/** The amount of each payment the fake bank holds, by payment id (set by the tests' pay helper). */
export const fakeAmounts = new Map<string, number>();

/**
 * A passing failure ("MySQL is away") that asks for its retry at once. The workflow's retry policy
 * still decides whether there is one (its maximumAttempts holds); only the wait between attempts,
 * seconds by the policy, becomes 10 ms, so a test of "retried, then given up" does not sit through
 * the backoff.
 */
export const mysqlAway = (): ApplicationFailure =>
  ApplicationFailure.create({ message: 'MySQL is away', nextRetryDelay: '10ms' });

export interface Call {
  name: Name;
  input: unknown;
}

export class FakeActivities {
  /** Every call, of every activity, in the order they started. */
  readonly log: Call[] = [];
  private readonly behaviours: Behaviours = { ...HEALTHY };
  private readonly listeners: (() => void)[] = [];

  /** What the worker is given: one function per real activity name. */
  readonly activities = Object.fromEntries(
    (Object.keys(HEALTHY) as Name[]).map((name) => [name, (input: never) => this.run(name, input)]),
  ) as unknown as PaymentActivities;

  /** From now on `name` answers with `behaviour` (which may wait, or throw to fail); `call` counts calls of `name` from 1. */
  on<K extends Name>(name: K, behaviour: Behaviour<K>): this {
    (this.behaviours as Record<Name, unknown>)[name] = behaviour;
    return this;
  }

  constructor() {
    this.behaviours.readPaymentForRefund = async ({ payment_id, refund_id }) => this.recorded(payment_id, refund_id);
    this.behaviours.bankTokenOnRoute = (input) => this.tokenOnRoute(input);
  }

  /**
   * The payment flow workflow's one token activity, as the real one is made (activities/bank/routing.ts): the
   * route's plan, each PSP asked twice at most (once where the failure is final), the PSP that gave the token
   * recorded, its capabilities answered. Each step is this fake's own activity of that name, logged as such
   * (and the token activity itself not), so a test sets and reads them as it does for the lifecycle
   * workflow, which calls them one by one.
   */
  private async tokenOnRoute(input: Input<'bankTokenOnRoute'>): Promise<Output<'bankTokenOnRoute'>> {
    const { redirect_url, verify_window_ms, ...identity } = input;
    const route = await this.run('planPaymentRoute', { ...identity, verify_window_ms });
    for (const [attempt, { psp, terminal_id }] of route.entries()) {
      let token: Output<'requestBankToken'> | undefined;
      for (let tried = 1; token === undefined; tried++) {
        try {
          token = await this.run('requestBankToken', { ...identity, redirect_url, psp, attempt });
        } catch (error) {
          const final =
            error instanceof ApplicationFailure &&
            (error.nonRetryable || TOKEN_FAILURES_FINAL_AT_PSP.includes(error.type ?? ''));
          if (final || tried >= 2) break;
        }
      }
      if (token === undefined) continue;
      await this.run('recordPaymentPsp', { ...identity, psp, terminal_id });
      const capabilities = await this.run('pspCapabilities', {
        payment_id: identity.payment_id,
        mode: identity.mode,
        psp,
      });
      return { ...token, psp, terminal_id, capabilities };
    }
    return null;
  }

  /**
   * The payment as the writes so far left its record (the highest version written by
   * recordTransition or recordRefund), and the refund `refundId` as last written, as MySQL would answer.
   */
  recorded(paymentId: string, refundId: string): Output<'readPaymentForRefund'> {
    const writes = [
      ...this.calls('recordTransition'),
      ...this.calls('recordRefund').flatMap((c) => (c.payment === null ? [] : [c.payment])),
    ].filter((w) => w.payment.id === paymentId);
    const latest = writes.reduce<(typeof writes)[number] | undefined>(
      (last, w) => (last === undefined || w.version > last.version ? w : last),
      undefined,
    );
    if (latest === undefined) throw new Error(`no record of payment ${paymentId}`);
    const refund =
      this.calls('recordRefund')
        .filter((c) => c.refund.id === refundId)
        .at(-1)?.refund ?? null;
    return { payment: latest.payment, version: latest.version, refund };
  }

  /** The inputs of every call of `name`, in order. */
  calls<K extends Name>(name: K): Input<K>[] {
    return this.log.filter((c) => c.name === name).map((c) => c.input as Input<K>);
  }

  /** The recorded transitions, as `version status`. */
  transitions(): string[] {
    // A record write is keyed by its version (activities/records.ts): a local activity run again
    // (its workflow task timed out on a loaded machine) writes nothing twice, so a repeat of one
    // version is one transition. Two transitions are two versions.
    const writes = this.calls('recordTransition').map(({ payment, version }) => `${version} ${payment.status}`);
    return [...new Set(writes)];
  }

  /** The recorded refund writes, as `refund status, payment version status refunded_amount` (or `no payment change`). */
  refundRecords(): string[] {
    return this.calls('recordRefund').map(({ refund, payment }) => {
      const change =
        payment === null
          ? 'no payment change'
          : `payment ${payment.version} ${payment.payment.status} ${payment.payment.refunded_amount}`;
      return `${refund.amount} ${refund.status}, ${change}`;
    });
  }

  /** Resolves with the first call of `name` (already made or still to come) whose input matches. */
  async called<K extends Name>(name: K, match: (input: Input<K>) => boolean = () => true): Promise<Input<K>> {
    for (;;) {
      const found = this.calls(name).find(match);
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => this.listeners.push(resolve));
    }
  }

  private async run<K extends Name>(name: K, input: Input<K>): Promise<Output<K>> {
    // The token activity is logged as its steps, the calls the lifecycle workflow makes one by one.
    if (name !== 'bankTokenOnRoute') this.log.push({ name, input });
    for (const wake of this.listeners.splice(0)) wake();
    const behaviour = this.behaviours[name] as Behaviour<K>;
    return behaviour(input, this.calls(name).length);
  }
}

/** A promise the test resolves when it chooses: `opened` waits, `open()` lets it through. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
