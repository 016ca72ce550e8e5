/** The settings' old names, still read while their new names are unset, with a warning at start. */
import type { Config } from './config-schema.ts';

/**
 * Settings as they were named before: each old name is still read when its new one is unset, with a
 * deprecation warning at start (deprecatedSettingWarnings). SEP's were renamed when the registry of PSPs
 * gave every PSP's the same shape (BANK_TIMEOUT_MS and BANK_PENDING_LIMIT_SECONDS are every PSP's and keep
 * their names); SANDBOX_DELAY_SECONDS because it also sets when live payments are confirmed again, and the
 * simulator's own setting keeps that name.
 */
export const DEPRECATED_SETTING_NAMES = {
  BANK_BASE_URL: 'SEP_BASE_URL',
  BANK_PAGE_URL: 'SEP_PAGE_URL',
  BANK_TERMINAL_ID: 'SEP_TERMINAL_ID',
  BANK_PASSWORD: 'SEP_PASSWORD',
  SANDBOX_BANK_URL: 'SANDBOX_SEP_URL',
  SANDBOX_BANK_PAGE_URL: 'SANDBOX_SEP_PAGE_URL',
  SANDBOX_BANK_TERMINAL_ID: 'SANDBOX_SEP_TERMINAL_ID',
  SANDBOX_BANK_PASSWORD: 'SANDBOX_SEP_PASSWORD',
  SANDBOX_DELAY_SECONDS: 'BANK_RECONFIRM_AFTER_SECONDS',
} as const satisfies Record<string, keyof Config>;

const isSet = (value: string | undefined): value is string => value !== undefined && value !== '';

/** The old names `env` sets whose value the configuration takes (their new name is unset), each with its new name. */
export function deprecatedSettingsIn(
  env: Record<string, string | undefined>,
): { name: string; instead: keyof Config }[] {
  return Object.entries(DEPRECATED_SETTING_NAMES)
    .filter(([old, instead]) => isSet(env[old]) && !isSet(env[instead]))
    .map(([name, instead]) => ({ name, instead }));
}

/** One sentence per old setting name in use, for the process's log at start (one warning each). */
export function deprecatedSettingWarnings(env: Record<string, string | undefined> = process.env): string[] {
  return deprecatedSettingsIn(env).map(
    ({ name, instead }) =>
      `${name} is deprecated: set ${instead} instead (${name} is read only while ${instead} is unset)`,
  );
}

/**
 * Logs each old setting name in use once (the API and the worker call it at start). The operator
 * CLI reads the old names silently: its standard error is its answer, which scripts read.
 */
export function warnDeprecatedSettings(
  logger: { warn(message: string): void },
  env: Record<string, string | undefined> = process.env,
): void {
  for (const warning of deprecatedSettingWarnings(env)) logger.warn(warning);
}
