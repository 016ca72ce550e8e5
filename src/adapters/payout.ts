/**
 * Payouts to merchants (docs/LEDGER.md#payouts): a Paya transfer of a
 * settlement's net to the merchant's Sheba IBAN, through the bank that
 * serves the gateway's live terminal (the bank simulator in tests), over
 * the same transport as SEP's IPG calls (psp/sep/client.ts):
 *
 *   transfer POST {base}/paya/transfer {TerminalId, TransferId, Iban, Amount, Description}
 *
 * The transfer carries our key (`X-Operation-Key` and TransferId:
 * payout:<settlement>:<attempt>); the bank makes one transfer per key and
 * answers a repeat with the first answer, so a retried or replayed activity
 * never pays twice.
 */
import { RESULT, type SepClient } from '../psps/sep/client.ts';

export interface PayoutRequest {
  key: string;
  iban: string;
  amount: number;
  description: string;
}

export type PayoutAnswer =
  { result: 'paid'; reference: string } | { result: 'refused'; code: number; description: string };

export interface PayoutAdapter {
  /** Throws BankUnavailableError when the bank did not answer (worth another try with the same key). */
  transfer(request: PayoutRequest): Promise<PayoutAnswer>;
}

interface TransferAnswer {
  ResultCode?: number;
  ResultDescription?: string;
  TraceNo?: string;
}

export class PayaPayouts implements PayoutAdapter {
  private readonly bank: SepClient;
  constructor(bank: SepClient) {
    this.bank = bank;
  }

  async transfer({ key, iban, amount, description }: PayoutRequest): Promise<PayoutAnswer> {
    const { terminalId, password } = this.bank.endpoint;
    const answer = await this.bank.call<TransferAnswer>('/paya/transfer', key, {
      TerminalId: terminalId,
      ...(password === '' ? {} : { Password: password }),
      TransferId: key,
      Iban: iban,
      Amount: amount,
      Description: description,
    });
    const code = answer.ResultCode ?? -1;
    if (code === RESULT.OK || code === RESULT.DUPLICATE)
      return { result: 'paid', reference: String(answer.TraceNo ?? '') };
    return {
      result: 'refused',
      code,
      description: answer.ResultDescription ?? `the bank refused the transfer (${code})`,
    };
  }
}
