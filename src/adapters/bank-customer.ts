/**
 * The customer on the bank simulator's page, without a browser: the test
 * helper `bank_outcome` takes the same path as a person (token → the bank's
 * page → a choice → the bank's form back to us), so API-only tests exercise
 * the real protocol. Only for the simulators: a real bank's page is for people.
 * SEP's page is reached by a GET with the token, Mellat's by a POST of RefId;
 * the choice is posted to each simulator's own choice address.
 */
import { BankUnavailableError } from './psp/psp-client.ts';

const FIELD = /<input type="hidden" name="([A-Za-z]+)" value="([^"]*)">/g;
const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The way to the bank's page the token gave (BankToken's url, method and fields). */
export interface SimulatorPage {
  url: string;
  method: 'GET' | 'POST';
  fields: Record<string, string>;
}

/** Where each simulator takes the customer's choice, and the token's name there. */
const CHOICE = {
  GET: { path: '/OnlinePG/pay', token: (page: SimulatorPage) => ({ token: new URL(page.url).searchParams.get('token') ?? '' }) },
  POST: { path: '/pgwchannel/pay', token: (page: SimulatorPage) => ({ RefId: page.fields.RefId ?? '' }) },
} as const;

/**
 * Chooses `outcome` on the simulator's page `page` and answers the fields the bank posts back.
 * The choice goes to `simulatorUrl`, the simulator's address as this server reaches it (the page's
 * address is the one customers' browsers reach, which may differ).
 */
export async function chooseOnSimulator(simulatorUrl: string, page: SimulatorPage, outcome: string, timeoutMs: number): Promise<Record<string, string>> {
  const choice = CHOICE[page.method];
  let html: string;
  try {
    const res = await fetch(`${simulatorUrl.replace(/\/+$/, '')}${choice.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...choice.token(page), outcome }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`the simulator answered ${res.status}`);
    html = await res.text();
  } catch (error) {
    throw new BankUnavailableError(`the bank simulator's page did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  return Object.fromEntries([...html.matchAll(FIELD)].map((m) => [m[1]!, unescape(m[2]!)]));
}
