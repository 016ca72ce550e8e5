/**
 * The customer on the bank simulator's page, without a browser: the test
 * helper `bank_outcome` takes the same path as a person (token → the bank's
 * page → a choice → the bank's form back to us), so API-only tests exercise
 * the real protocol. Only for the simulator: a real bank's page is for people.
 */
import { BankUnavailableError } from './psp/psp-client.ts';

const FIELD = /<input type="hidden" name="([A-Za-z]+)" value="([^"]*)">/g;
const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/**
 * Chooses `outcome` on the simulator's page of `pageUrl` and answers the fields the bank posts back.
 * The choice goes to `simulatorUrl`, the simulator's address as this server reaches it (the page's
 * address is the one customers' browsers reach, which may differ).
 */
export async function chooseOnSimulator(simulatorUrl: string, pageUrl: string, outcome: string, timeoutMs: number): Promise<Record<string, string>> {
  const token = new URL(pageUrl).searchParams.get('token') ?? '';
  let html: string;
  try {
    const res = await fetch(`${simulatorUrl.replace(/\/+$/, '')}/OnlinePG/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, outcome }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`the simulator answered ${res.status}`);
    html = await res.text();
  } catch (error) {
    throw new BankUnavailableError(`the bank simulator's page did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  return Object.fromEntries([...html.matchAll(FIELD)].map((m) => [m[1]!, unescape(m[2]!)]));
}
