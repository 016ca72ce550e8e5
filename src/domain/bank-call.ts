/**
 * What every bank activity is told of the payment it acts on (activities/bank/): the one shape the
 * workflows build (workflows/payment-state.ts atBank, workflows/late-return.ts) and the activities
 * take, here in the domain because both layers speak it. It is a claim, never the truth: the activity
 * checks it against the payment's record before any bank is asked (activities/payment-record.ts).
 * Each bank activity's input, this included, is recorded in the workflows' histories, so its field
 * names are the wire's: renaming one would strand the activities of workflows already running.
 */
import type { PspName } from '../psps/profiles.ts';
import type { KeyMode } from './merchant.ts';
import type { Payment } from './payment-schemas.ts';

export interface BankCallIdentity {
  payment_id: string;
  mode: KeyMode;
  /** The PSP that took the payment; absent for a payment whose workflow predates routing (the record's, or SEP, decides). */
  psp?: PspName;
}

/**
 * The identity of a bank call about `payment`, the one way it is built: its PSP only once one took it
 * (a payment whose workflow predates routing has none, and the record's, or SEP, decides).
 */
export const bankCallIdentityOf = ({ id, mode, psp }: Pick<Payment, 'id' | 'mode' | 'psp'>): BankCallIdentity =>
  psp === undefined || psp === null ? { payment_id: id, mode } : { payment_id: id, mode, psp: psp.name };
