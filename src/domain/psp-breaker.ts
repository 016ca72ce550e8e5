/**
 * The circuit breaker of one PSP terminal (docs/psps/routing.md): the rules
 * only, pure, so the health store applies them inside one MySQL transaction
 * and every worker and API shares the one row they produce.
 *
 * closed: every token request goes through; failures (a refusal to answer, a
 * server error, a timeout) are counted in a window that starts at the first
 * failure; `failures` of them within `windowMs` open the breaker.
 * open: no request goes through for `openMs`; then one request is let through
 * as the probe (half-open). half_open: the probe's success closes the breaker,
 * its failure opens it again for another `openMs`; a probe that never reports
 * (its worker died) is replaced after `probeTimeoutMs`.
 */

export const BREAKER_STATES = ['closed', 'half_open', 'open'] as const;
export type BreakerState = (typeof BREAKER_STATES)[number];

/** What the store keeps of one terminal's breaker; times in ms since the epoch, null when not set. */
export interface BreakerRecord {
  state: BreakerState;
  /** Failures counted in the current window (closed only). */
  failures: number;
  window_started_at: number | null;
  opened_at: number | null;
  /** When the half-open breaker let its probe through; null: no probe in flight. */
  probe_started_at: number | null;
}

export interface BreakerSettings {
  failures: number;
  windowMs: number;
  openMs: number;
  /** How long a probe may take before another request may probe instead (the bank's timeout, with room). */
  probeTimeoutMs: number;
}

/** The breaker settings from the configuration's values (the worker's and the API's, and the CLI's reading). */
export function breakerSettings(config: {
  PSP_BREAKER_FAILURES: number;
  PSP_BREAKER_WINDOW_SECONDS: number;
  PSP_BREAKER_OPEN_SECONDS: number;
  BANK_TIMEOUT_MS: number;
}): BreakerSettings {
  return {
    failures: config.PSP_BREAKER_FAILURES,
    windowMs: config.PSP_BREAKER_WINDOW_SECONDS * 1000,
    openMs: config.PSP_BREAKER_OPEN_SECONDS * 1000,
    // A probe has its two attempts of the bank's timeout, with room; past that it is taken as lost.
    probeTimeoutMs: config.BANK_TIMEOUT_MS * 3,
  };
}

export const CLOSED_BREAKER: BreakerRecord = {
  state: 'closed',
  failures: 0,
  window_started_at: null,
  opened_at: null,
  probe_started_at: null,
};

/** The state a caller should see at `now`: an open breaker whose time is up is half-open (the next request probes). */
export function breakerStateAt(record: BreakerRecord, now: number, settings: BreakerSettings): BreakerState {
  if (record.state === 'open' && record.opened_at !== null && now >= record.opened_at + settings.openMs)
    return 'half_open';
  return record.state;
}

/**
 * Whether a token request may go to the terminal at `now`, and the record once it has: closed
 * admits everyone; open admits no one until its time is up, then the first caller as the probe;
 * half-open admits no one while its probe is in flight.
 */
export function admitRequest(
  record: BreakerRecord,
  now: number,
  settings: BreakerSettings,
): { admitted: boolean; probe: boolean; next: BreakerRecord } {
  if (record.state === 'closed') return { admitted: true, probe: false, next: record };
  const probeDue =
    record.state === 'open'
      ? record.opened_at === null || now >= record.opened_at + settings.openMs
      : record.probe_started_at === null || now >= record.probe_started_at + settings.probeTimeoutMs;
  if (!probeDue) return { admitted: false, probe: false, next: record };
  return { admitted: true, probe: true, next: { ...record, state: 'half_open', probe_started_at: now } };
}

/** A token request succeeded: a half-open (or open) breaker closes and forgets its failures; a closed one is unchanged. */
export function afterSuccess(record: BreakerRecord): BreakerRecord {
  return record.state === 'closed' ? record : CLOSED_BREAKER;
}

/** A token request failed or timed out at `now`. */
export function afterFailure(record: BreakerRecord, now: number, settings: BreakerSettings): BreakerRecord {
  // The probe failed: open again for another full period.
  if (record.state === 'half_open') return { ...CLOSED_BREAKER, state: 'open', opened_at: now };
  // A request admitted before the breaker opened, reporting late: the breaker is open already.
  if (record.state === 'open') return record;
  const windowOver = record.window_started_at === null || now >= record.window_started_at + settings.windowMs;
  const failures = windowOver ? 1 : record.failures + 1;
  const windowStartedAt = windowOver ? now : record.window_started_at;
  if (failures >= settings.failures)
    return { state: 'open', failures, window_started_at: windowStartedAt, opened_at: now, probe_started_at: null };
  return { ...record, failures, window_started_at: windowStartedAt };
}

/** The gauge's value of a state: 0 closed, 1 half-open, 2 open. */
export const breakerGaugeValue = (state: BreakerState): number => BREAKER_STATES.indexOf(state);
