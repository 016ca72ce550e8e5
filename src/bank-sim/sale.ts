/**
 * The simulators' kit for a PSP's token call, the same whatever protocol asks for it: the merchant's
 * return address, checked as every PSP checks it, and the sale opened on the ledger with its token
 * recorded under the caller's operation key. Each simulator module (src/psps/<name>/simulator.ts)
 * keeps only its protocol: its fields, its codes, its token's shape and its rule for a repeated order.
 */
import { now, type Ledger, type Transaction } from './ledger.ts';
import { redirectAllowed } from './simulator-protocol.ts';

/** `raw` as an http or https URL, or undefined. */
export function httpUrl(raw: string): URL | undefined {
  try {
    const url = new URL(raw);
    return /^https?:$/.test(url.protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The merchant's return address of a token call: an http(s) URL back to the merchant's gateway only
 * (`origins`, the simulator's redirectOrigins), since the page's form and callback_repeat go there;
 * undefined for any other, which the protocol refuses with its own code.
 */
export function returnAddress(raw: string, origins: readonly string[]): URL | undefined {
  const url = httpUrl(raw);
  return url !== undefined && redirectAllowed(url, origins) ? url : undefined;
}

/** A sale the token call opens: the PSP's token for it, and what the merchant asked. */
export interface SaleRequest {
  token: string;
  terminal: string;
  amount: number;
  /** The merchant's order id as the protocol names it (ResNum, orderId, invoice, …). */
  resNum: string;
  redirectUrl: URL;
  /** The caller's X-Operation-Key, so that a test can tell which call opened the sale. */
  operationKey: string;
}

/** Opens the sale on the ledger and records its token call: the transaction the page and the operations find by its token. */
export function openSale(ledger: Ledger, sale: SaleRequest): Transaction {
  const txn: Transaction = {
    token: sale.token,
    terminal: sale.terminal,
    amount: sale.amount,
    res_num: sale.resNum,
    redirect_url: sale.redirectUrl.toString(),
    created_at: now(),
    refunds: {},
  };
  ledger.add(txn);
  ledger.record({
    kind: 'token',
    operation_key: sale.operationKey,
    res_num: sale.resNum,
    ref_num: null,
    amount: sale.amount,
    at: now(),
  });
  return txn;
}
