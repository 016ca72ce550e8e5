/**
 * The tables of PSP routing and health (migrations 0032 and 0033, docs/psps/routing.md),
 * beside schema.ts, which lists them in the Database.
 */
import type { Defaulted } from './schema-columns.ts';

/** One terminal of a merchant's route in a mode (docs/psps/routing.md). */
export interface PspRoutesTable {
  merchant_id: string;
  mode: 'test' | 'live';
  position: number;
  priority: number;
  psp: string;
  terminal_id: string;
  weight: number;
  min_amount: number | string | null;
  max_amount: number | string | null;
  updated_at: Date;
}

/** One merchant a PSP terminal is reserved for (docs/psps/routing.md); a terminal without rows is anyone's. */
export interface PspTerminalReservationsTable {
  psp: string;
  terminal_id: string;
  merchant_id: string;
  updated_at: Date;
}

/** The circuit breaker of one PSP terminal, shared by every process (PspHealthStore, src/db/psp-health.ts). */
export interface PspHealthTable {
  mode: 'test' | 'live';
  psp: string;
  terminal_id: string;
  state: Defaulted<'closed' | 'open' | 'half_open'>;
  failures: Defaulted<number>;
  window_started_at: Date | null;
  opened_at: Date | null;
  probe_started_at: Date | null;
  last_failure: string | null;
  updated_at: Date;
}
