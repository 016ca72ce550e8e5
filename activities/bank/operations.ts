/**
 * The bank operations on a payment that took its token (docs/BANK.md): what its PSP offers, the
 * confirmation at the customer's return, the inquiry, the settle at the merchant's verify, the reverse
 * and the refund. Every call goes to the PSP the record names, the one that took the payment
 * (record-guard.ts); each is idempotent by its operation key (confirm/settle/reverse by payment,
 * refund by refund id), so Temporal may retry it as often as it needs.
 */
import { isAllowedCard } from '../../src/psps/card-hash.ts';
import type { Confirmation, Inquiry, PspCapabilities, PspName } from '../../src/psps/psp-client.ts';
import { paymentStatusById } from '../../src/db/payments.ts';
import type { ConfirmedAtBank } from '../../src/domain/bank-confirmation.ts';
import type { BankCallIdentity } from '../../src/domain/bank-call.ts';
import { CAPTURE } from '../../src/domain/capture.ts';
import { recordedChargedAmount } from '../../src/domain/payment.ts';
import { cardHashKey } from '../../src/config.ts';
import { allowedCardsOf, claimOf, type BankActivityDependencies, type RecordedBanks } from './record-guard.ts';
import { offered, type BankCallKit } from './calls.ts';

/** A call about one of the PSP's references (RefNum): a confirmation's, a paid payment's. */
type AtReference = BankCallIdentity & { ref_num: string };

export function operationActivities(
  { db, logger, config }: Pick<BankActivityDependencies, 'db' | 'logger' | 'config'>,
  { recordedBank, clientFor }: RecordedBanks,
  { loggedBankCall, saleHolder }: BankCallKit,
) {
  return {
    /**
     * What the payment's PSP offers (PspCapabilities: capture at verify or at settle, its reversal
     * window, refund, inquiry, daily report), as its connector declares it: the PSP the record names,
     * else the claim's. The workflows ask it once where their path depends on it (under a patch), so
     * the answer lands in their history and replays.
     */
    async pspCapabilities(identity: BankCallIdentity): Promise<PspCapabilities & { psp: PspName }> {
      const bank = await clientFor('pspCapabilities', claimOf(identity));
      return { ...bank.capabilities, psp: bank.name };
    },

    /**
     * Asks the bank whether it holds the customer's payment under `ref_num` (VerifyTransaction); the
     * workflow judges the answer. The connector is given the recorded charged amount (never the
     * workflow's word): a PSP that answers a code alone confirms the sale it bound to that amount at
     * the token.
     */
    async confirmAtBank(
      input: AtReference,
    ): Promise<Exclude<Confirmation, { result: 'confirmed' }> | (ConfirmedAtBank & { terminal: string })> {
      const { payment_id, mode, ref_num } = input;
      const { bank: bankFor, recorded: record } = await recordedBank('confirmAtBank', claimOf(input));
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
    async inquireAtBank(input: BankCallIdentity & { ref_num?: string; token?: string }): Promise<Inquiry> {
      const { payment_id, mode, ref_num, token } = input;
      const bank = await clientFor('inquireAtBank', claimOf(input));
      const inquire = offered(bank, 'inquire', bank.inquire?.bind(bank));
      return loggedBankCall('inquire', { payment_id, mode }, () =>
        inquire(payment_id, { ref_num: ref_num ?? '', token: token ?? '' }),
      );
    },

    /**
     * Captures the payment at the PSP at the merchant's verify: its settle, or, where capture is
     * `merchant_verify` (Sadad), its verify, held to the recorded charged amount (never the workflow's word).
     */
    async settleAtBank(input: AtReference) {
      const { payment_id, mode, ref_num } = input;
      const { bank, recorded: record } = await recordedBank('settleAtBank', claimOf(input));
      const settle = offered(bank, 'settle', bank.settle?.bind(bank));
      return loggedBankCall('settle', { payment_id, mode, ref_num }, () =>
        settle(payment_id, ref_num, recordedChargedAmount(record)),
      );
    },

    /**
     * Gives a paid payment's money back at the PSP. Where the PSP verifies only at the merchant's
     * verify (CAPTURE: Sadad, no reversal) and the payment is still `paid`, the PSP was never asked to
     * verify it: nothing is called, since the PSP gives back by itself a payment nobody verifies
     * (docs/psps/sadad.md); any other reverse there (a verified payment's) is the connector's to refuse.
     */
    async reverseAtBank(input: AtReference) {
      const { payment_id, mode, ref_num } = input;
      const bank = await clientFor('reverseAtBank', claimOf(input));
      if (CAPTURE[bank.capabilities.capture].verifiesOnlyAtMerchantVerify) {
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

    /** Pays back `amount` of a captured payment through the PSP's own refund operation, keyed by the refund's id. */
    async refundAtBank(input: AtReference & { refund_id: string; amount: number }) {
      const { payment_id, mode, ref_num, refund_id, amount } = input;
      const bank = await clientFor('refundAtBank', claimOf(input));
      const refund = offered(bank, 'refund', bank.refund?.bind(bank));
      return loggedBankCall('refund', { payment_id, mode, ref_num, refund_id, amount }, () =>
        refund(payment_id, ref_num, refund_id, amount),
      );
    },
  };
}
