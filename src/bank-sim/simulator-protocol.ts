/**
 * What one PSP's simulator is (server.ts runs one, main.ts picks it by BANK_SIM_PROTOCOL): its server-to-server
 * calls, as routes (a REST PSP's) or as a listener on the server (a SOAP service's), its customer's page
 * (a PageDialect) and its defaults. Each PSP's simulator is one module exporting one SimulatorProtocol,
 * listed by one line in protocols.ts. Types only, so the modules and the table import it without a cycle.
 */
import type { Server } from 'node:http';
import type { PageDialect } from './customer-page.ts';
import type { FaultSwitches } from './faults.ts';
import type { Routes } from './http.ts';
import type { Ledger } from './ledger.ts';

/** What a protocol's routes need of the simulator's settings. */
export interface ProtocolOptions {
  terminalId: string;
  password: string;
  delaySeconds: number;
  redirectOrigins: readonly string[];
  /** How long after its verify SEP still takes a ReverseTransaction (SEP: 50 minutes); 0: no limit. */
  reversalWindowSeconds?: number;
}

/** Whether `url`'s origin is one of `origins` (`scheme://host:*`: any port of that host). */
export function redirectAllowed(url: URL, origins: readonly string[]): boolean {
  return origins.some((origin) => {
    const anyPort = /^(https?:\/\/[^/:]+):\*$/.exec(origin);
    return anyPort !== null ? `${url.protocol}//${url.hostname}` === anyPort[1] : url.origin === origin;
  });
}

export interface SimulatorOptions {
  /** The PSP protocol this process speaks: a name of protocols.ts's table (default `sep`). */
  protocol?: string;
  stateFile: string;
  /** The one terminal this bank knows; token and verify calls must name it. */
  terminalId: string;
  /** The terminal's password: every server-to-server call must carry it ('' when none is set). */
  password: string;
  /** The terminal's user name, for a PSP that checks one with the password (Mellat); '' for one that has none. */
  userName?: string;
  /**
   * The protocol's other settings by suffix (`MERCHANT_ID`, `KEY`, …): what the gateway's
   * `SANDBOX_<PSP>_<suffix>` holds, given to the simulator as `BANK_SIM_<suffix>` (main.ts).
   */
  settings?: Readonly<Record<string, string>>;
  /**
   * The bearer token of the admin endpoints (the ledger's listings, the fault switches);
   * absent or '': they do not exist, so nothing reachable by customers can switch the bank.
   */
  adminToken?: string;
  /**
   * The origins a token's RedirectUrl may have (the gateway's): `scheme://host:port`, or
   * `scheme://host:*` for any port. The bank's page sends customers there and `callback_repeat`
   * posts there, so no other address of the network can be made a target.
   */
  redirectOrigins: readonly string[];
  /** "Delay in verification": how long confirm answers "in progress" after the customer's choice. */
  delaySeconds: number;
  /**
   * A paid transaction nobody confirmed within this many seconds of the customer's choice is
   * reversed by the bank itself, as Shaparak PSPs do (SEP: 30 minutes, Behpardakht: 20): the customer's money
   * comes back even when the gateway never answers. 0 turns it off; absent: the protocol's default.
   */
  autoReverseSeconds?: number;
  /** How long after its verify SEP still takes a ReverseTransaction (SEP: 50 minutes, docs/psps/sep.md); 0: no limit. */
  reversalWindowSeconds?: number;
  /** Mellat only: a verified sale nobody settled is settled by the bank itself this many seconds after its verify (Behpardakht: 180 minutes); 0 never. */
  autoSettleSeconds?: number;
}

/** What a protocol's calls work on: the simulator's ledger, its fault switches and its options. */
export interface SimulatorContext {
  ledger: Ledger;
  faults: FaultSwitches;
  options: SimulatorOptions;
}

/** The defaults of `npm run bank-sim` for a protocol: the same as its PSP's profile's simulator (a unit test holds them equal). */
export interface SimulatorDefaults {
  port: number;
  terminalId: string;
  /** The PSP's own: a payment paid and never verified is given back after this many seconds. */
  autoReverseSeconds: number;
  /** The protocol's own settings besides the terminal and its password (`USERNAME`, `MERCHANT_ID`, …) and their defaults: read from `BANK_SIM_<suffix>`. */
  settings: Readonly<Record<string, string>>;
  /** The protocol's own secret settings besides the password (Parsian's `PIN`): read from `BANK_SIM_<suffix>`, none by default. */
  secretSettings?: readonly string[];
}

export interface SimulatorProtocol {
  /** BANK_SIM_PROTOCOL's value: the PSP's name in the gateway (src/psps/profiles.ts). */
  name: string;
  /** For the log line and the docs: "Behpardakht Mellat's SOAP IPG". */
  title: string;
  defaults: SimulatorDefaults;
  /** The customer's page as this PSP shows it: its address, its token's name, the fields it posts back. */
  page: PageDialect;
  /** A REST PSP's calls: the areas of routes answering them (before the page's and the admin's). */
  routes?(context: SimulatorContext): Routes[];
  /** A SOAP PSP's calls: a listener put on the server ahead of the routes, once the server exists. */
  listen?(server: Server, context: SimulatorContext): void;
}
