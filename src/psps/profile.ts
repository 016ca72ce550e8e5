/**
 * What a PSP connector declares about itself as plain data (docs/psps/README.md): its name, its
 * capabilities as its references show them, its settings in both modes and its simulator. Each
 * connector's `profile.ts` exports one `PspProfile`; the registry of profiles (profiles.ts) is the
 * one list of PSPs, from which the names, the settings of the configuration, the OpenAPI enum, the
 * launcher's simulators, compose, the Helm values and the docs' tables are derived.
 *
 * Pure data with no imports, so the lowest layers (the configuration, the domain) may read it:
 * a profile never reaches the network and holds no code.
 */

/**
 * What a PSP really offers, as its public references show it (docs/psps/<psp>.md): declared by its
 * connector, read by the payment workflow, the refunds and the settlement. An operation the PSP does
 * not have is absent from its client, never called.
 */
export interface PspCapabilities {
  /**
   * Where the customer's money is captured. `verify`: the PSP's verify at the customer's return is
   * final (SEP's VerifyTransaction): the merchant's verify asks the PSP nothing. `settle`: a separate
   * settle captures (Behpardakht's bpSettleRequest), asked at the merchant's verify.
   * `merchant_verify`: the PSP's verify is final and the PSP has no reversal, but gives back by itself
   * a payment nobody verifies within `unverifiedReversalMs` (Sadad's Advice/Verify): its verify is
   * asked only at the merchant's verify (through the client's `settle`), never at the return, whose
   * `confirm` asks the PSP nothing; the verify deadline's reversal asks the PSP nothing either, and
   * the verify window must end inside `unverifiedReversalMs` (docs/PAYMENTS.md#capture-at-verify-or-at-settle).
   */
  capture: 'verify' | 'settle' | 'merchant_verify';
  /**
   * How long after the PSP's verify it still takes a reversal, in ms. The verify window (plus the
   * pending limit) must fit inside it: a reversal asked later is refused and the money stays captured.
   */
  reversalWindowMs: number;
  /** How long the PSP waits for our verify after the customer paid before it gives the money back by itself, in ms. */
  unverifiedReversalMs: number;
  /** `partial`: a refund operation for all or part of a captured payment (the client's `refund`); `none`: no refund operation. */
  refund: 'partial' | 'none';
  /** Whether the PSP answers what became of a payment (the client's `inquire`). */
  inquiry: boolean;
  /**
   * Whether a reference documents the layout of the PSP's daily report (the merchant panel's export)
   * that an operator imports; without one, a payment's own verify and reverse answers are its record.
   */
  dailyReport: boolean;
}

/**
 * One setting of a connector besides the three every connector has (`URL`, `PAGE_URL`,
 * `TERMINAL_ID`): its credentials, for instance. The configuration has it twice, `SANDBOX_<NAME>_<suffix>`
 * for test mode (default `testDefault`, the launcher's simulator's own) and `<NAME>_<suffix>` for live
 * mode (default '').
 */
export interface PspSetting {
  /** Upper case with underscores: `PASSWORD`, `USERNAME`, `MERCHANT_ID`, `KEY`, … */
  suffix: string;
  /** What it is, for docs/CONFIGURATION.md and the Helm values ("the terminal's user name at Behpardakht"). */
  description: string;
  /** Test mode's default: the value the launcher gives this PSP's simulator. */
  testDefault: string;
  /** A password or key: kept with the secrets (Helm `secrets.values`), never logged or shown. */
  secret: boolean;
  /**
   * A secret of a shape its connector checks (not any long random string): what that shape is and the
   * command an operator runs to make a test value of it, which the deployment files' instructions give
   * instead of `openssl rand -hex 32` (test/foundation/docker-compose.test.ts runs it and feeds the result to the connector).
   */
  make?: { shape: string; command: string };
}

/** How the launcher runs this PSP's simulator (`npm run bank-sim` with `BANK_SIM_PROTOCOL` = the PSP's name). */
export interface PspSimulatorProfile {
  /** Its local port: test mode's default URL is `http://127.0.0.1:<port>`. */
  port: number;
  /** The one terminal it knows (test mode's default TERMINAL_ID). */
  terminalId: string;
  /** A payment paid and never verified is given back by the simulator after this many seconds (the PSP's own). */
  autoReverseSeconds: number;
}

export interface PspProfile {
  /** The PSP's name in configuration, records, the API and docs/psps/<name>.md: lower case letters and digits. */
  name: string;
  /** Its name for people, in English: "Saman Electronic Payment (SEP)". */
  title: string;
  /** Its name for people, in Persian (the dashboard's Persian pages): "پرداخت الکترونیک سامان (سپ)". */
  persianTitle: string;
  /** Its protocol in a few words: "REST (JSON)", "SOAP". */
  protocol: string;
  /** What it offers, as its references show it. */
  capabilities: PspCapabilities;
  /**
   * Whether its server-to-server verify names the card that paid (its SHA-256), so that a payment
   * restricted to cards can be held to them (docs/psps/README.md#who-may-pay-which-psps-can-enforce-it).
   */
  namesCardAtVerify: boolean;
  /** Its settings besides URL, PAGE_URL and TERMINAL_ID (above). */
  settings: readonly PspSetting[];
  /** Live mode's example address, for the docs ("https://sep.shaparak.ir"). */
  liveUrlExample: string;
  simulator: PspSimulatorProfile;
}
