/**
 * The gateway's windows against each PSP's own (docs/BANK.md#windows-from-the-psp): a paid payment
 * nobody verifies is reversed at VERIFY_WINDOW_SECONDS after it was paid, and a payment the PSP keeps
 * "in progress" may be paid up to BANK_PENDING_LIMIT_SECONDS late; the reversal must reach the PSP
 * while it still takes one (its connector's `reversalWindowMs`: SEP's 50 minutes after its verify,
 * Behpardakht's 180 minutes before it settles a verified sale by itself). A reversal asked later is
 * refused and the money stays with the merchant, unrecorded as such: such a configuration is refused
 * at start, by the API and the worker alike.
 */
import { ConfigError, type Config } from '../config.ts';
import { CAPTURE } from '../domain/capture.ts';
import { pspTakesVerifyWindow, UNVERIFIED_REVERSAL_MARGIN_MS } from '../domain/psp-routing.ts';
import { PSP_NAMES } from './psp-client.ts';
import type { PspClients } from './clients.ts';

type Windows = Pick<Config, 'VERIFY_WINDOW_SECONDS' | 'BANK_PENDING_LIMIT_SECONDS'>;

const minutes = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${ms / 1000} seconds`);

/** The sentence that refuses the configuration, for the first configured PSP whose reversal window it exceeds; undefined when it fits every one. */
export function reversalWindowProblem(config: Windows, clients: PspClients): string | undefined {
  const neededMs = (config.VERIFY_WINDOW_SECONDS + config.BANK_PENDING_LIMIT_SECONDS) * 1000;
  for (const mode of ['live', 'test'] as const) {
    for (const name of PSP_NAMES) {
      const client = clients[mode][name];
      // A PSP whose verify is asked only at the merchant's verify (capture `merchant_verify`: Sadad) is
      // asked no reversal at the deadline: it takes only payments whose window fits its own return of
      // unverified payments, and the route skips it for the others (pspTakesVerifyWindow).
      if (
        client === undefined ||
        CAPTURE[client.capabilities.capture].verifiesOnlyAtMerchantVerify ||
        neededMs <= client.capabilities.reversalWindowMs
      )
        continue;
      return (
        `Invalid configuration: VERIFY_WINDOW_SECONDS (${config.VERIFY_WINDOW_SECONDS} s) plus BANK_PENDING_LIMIT_SECONDS (${config.BANK_PENDING_LIMIT_SECONDS} s) ` +
        `exceeds PSP ${name}'s reversal window of ${minutes(client.capabilities.reversalWindowMs)} (${mode} mode), so a payment nobody verifies could no longer be reversed there: ` +
        `shorten them to at most ${client.capabilities.reversalWindowMs / 1000} s together`
      );
    }
  }
  return undefined;
}

/** Refuses to start (ConfigError, one sentence) with windows that exceed a configured PSP's reversal window. */
export function requireWindowsWithinReversal(config: Windows, clients: PspClients): void {
  const problem = reversalWindowProblem(config, clients);
  if (problem !== undefined) throw new ConfigError(problem);
}

/**
 * One warning for each PSP configured for live mode that the route skips for every payment of this
 * VERIFY_WINDOW_SECONDS (pspTakesVerifyWindow: Sadad, asked to verify only at the merchant's verify,
 * takes only a window that ends before it gives back an unverified payment). Not a refusal: the gateway
 * runs with its other PSPs, but an operator who configured such a PSP learns at start that it is unused.
 * Test mode's simulators are always configured, so they warn of nothing.
 */
export function skippedPspWarnings(config: Pick<Config, 'VERIFY_WINDOW_SECONDS'>, clients: PspClients): string[] {
  return PSP_NAMES.flatMap((name) => {
    const client = clients.live[name];
    if (client === undefined || pspTakesVerifyWindow(name, config.VERIFY_WINDOW_SECONDS * 1000)) return [];
    const most = (client.capabilities.unverifiedReversalMs - UNVERIFIED_REVERSAL_MARGIN_MS) / 1000;
    return [
      `PSP ${name} (live mode) gives back by itself a payment nobody verified within ${minutes(client.capabilities.unverifiedReversalMs)} and is asked to verify only at the merchant's verify, ` +
        `so it takes only payments whose verify window is at most ${most} s: with VERIFY_WINDOW_SECONDS ${config.VERIFY_WINDOW_SECONDS} s no payment is routed to it`,
    ];
  });
}
