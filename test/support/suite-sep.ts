/**
 * The suite's SEP simulator as the launcher names it: SANDBOX_SEP_URL, or its old name
 * SANDBOX_BANK_URL (which the configuration still reads as an alias); undefined when neither is set.
 * A module of its own, importing nothing, so the harness and the bank helpers both read it.
 */
export function suiteSepUrl(): string | undefined {
  const base = process.env.SANDBOX_SEP_URL || process.env.SANDBOX_BANK_URL;
  return base === undefined || base === '' ? undefined : base;
}
