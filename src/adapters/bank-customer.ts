/**
 * The customer on the bank simulator's page, without a browser: the test
 * helper `bank_outcome` takes the same path as a person (token → the bank's
 * page → a choice → the bank's form back to us), so API-only tests exercise
 * the real protocol. Only for the simulators: a real bank's page is for people.
 * The page is reached as the token says (SEP's by a GET with the token,
 * Mellat's by a POST of RefId), and the choice is posted with the page's own
 * form, so any PSP's simulator is walked the same way.
 */
import { BankUnavailableError } from '../psps/psp-client.ts';

const FIELD = /<input type="hidden" name="([A-Za-z]+)" value="([^"]*)">/g;
const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The way to the bank's page the token gave (BankToken's url, method and fields). */
export interface SimulatorPage {
  url: string;
  method: 'GET' | 'POST';
  fields: Record<string, string>;
}

/**
 * The form of the simulator's page that takes the customer's choice, and of its page back to the
 * merchant (a POST, or a GET where the PSP returns by the query string: PEP): its address and hidden
 * fields (the token, by the protocol's own name; the return's fields).
 */
const CHOICE_FORM = /<form method="(?:post|get)" action="([^"]+)">([\s\S]*?)<\/form>/;

/** One request to the simulator; its page's HTML, or BankUnavailableError. */
async function simulatorPage(url: string, init: RequestInit, timeoutMs: number): Promise<string> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`the simulator answered ${res.status}`);
    return await res.text();
  } catch (error) {
    throw new BankUnavailableError(
      `the bank simulator's page did not answer: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

const formBody = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/**
 * Chooses `outcome` on the simulator's page `page` and answers the fields the bank posts back. Like
 * the customer, whatever the PSP: opens the page the token leads to (a GET, or a POST of its fields),
 * then posts the outcome with the page's own choice form (its address and hidden token field). Every
 * request goes to `simulatorUrl`, the simulator's address as this server reaches it (the page's
 * address is the one customers' browsers reach, which may differ), at the page's path.
 */
export async function chooseOnSimulator(
  simulatorUrl: string,
  page: SimulatorPage,
  outcome: string,
  timeoutMs: number,
): Promise<Record<string, string>> {
  return (await chooseOnSimulatorReturn(simulatorUrl, page, outcome, timeoutMs)).fields;
}

/**
 * As chooseOnSimulator, and the address the bank's page sends the customer back to (its form's action:
 * the return address the token was asked with, '' when the page has no form), whose signature tells the
 * payment's own bank session (src/payments/return-signature.ts).
 */
export async function chooseOnSimulatorReturn(
  simulatorUrl: string,
  page: SimulatorPage,
  outcome: string,
  timeoutMs: number,
): Promise<{ fields: Record<string, string>; returnUrl: string }> {
  const base = `${simulatorUrl.replace(/\/+$/, '')}/`;
  const at = new URL(page.url);
  const pageUrl = new URL(`${at.pathname}${at.search}`.replace(/^\//, ''), base).href;
  const html = await simulatorPage(
    pageUrl,
    page.method === 'POST' ? { method: 'POST', ...formBody(page.fields) } : { method: 'GET' },
    timeoutMs,
  );
  const form = CHOICE_FORM.exec(html);
  if (form === null) throw new BankUnavailableError("the bank simulator's page has no choice form");
  const hidden = Object.fromEntries([...form[2]!.matchAll(FIELD)].map((m) => [m[1]!, unescape(m[2]!)]));
  const action = new URL(unescape(form[1]!.replace(/&amp;/g, '&')).replace(/^\//, ''), base).href;
  const answer = await simulatorPage(action, { method: 'POST', ...formBody({ ...hidden, outcome }) }, timeoutMs);
  // The return is the answer's form as the customer's browser posts it: its action's query (the
  // callback URL's own fields, Asan Pardakht's localInvoiceId) and its hidden fields, which win over
  // the query as they do at our return route.
  const back = CHOICE_FORM.exec(answer);
  const returnUrl = back === null ? '' : new URL(unescape(back[1]!.replace(/&amp;/g, '&')), base).href;
  const query = returnUrl === '' ? {} : Object.fromEntries(new URL(returnUrl).searchParams);
  return {
    fields: { ...query, ...Object.fromEntries([...answer.matchAll(FIELD)].map((m) => [m[1]!, unescape(m[2]!)])) },
    returnUrl,
  };
}
