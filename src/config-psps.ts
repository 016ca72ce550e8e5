/**
 * The PSPs' settings read from a configuration: one terminal's settings, whether a PSP is configured for a
 * mode, and where the PSPs' pages are (the pages' form-action policy). The settings themselves are the
 * registry's (src/psps/profiles.ts), in the table of config-schema.ts.
 */
import {
  PSP_NAMES,
  pspSettingName,
  pspSettings,
  type PspMode,
  type PspName,
  type PspSettingKey,
} from './psps/profiles.ts';
import type { Config } from './config-schema.ts';

/** One terminal's settings of PSP `psp` in `mode`, by suffix (`URL`, `PAGE_URL`, `TERMINAL_ID`, its profile's own): what its connector's client is made of. */
export function pspTerminalSettings(
  config: Pick<Config, PspSettingKey>,
  psp: PspName,
  mode: PspMode,
): Record<string, string> {
  return Object.fromEntries(
    pspSettings()
      .filter((s) => s.psp === psp && s.mode === mode)
      .map((s) => [s.suffix, config[s.name as PspSettingKey]]),
  );
}

/** The setting that holds PSP `psp`'s address in `mode`: a PSP is configured for a mode when it is non-empty. */
export const pspUrlSetting = (psp: PspName, mode: PspMode): PspSettingKey => pspSettingName(psp, mode, 'URL');

/** Whether PSP `psp` is configured for payments of `mode` (its address is set). */
export function pspConfigured(config: Pick<Config, PspSettingKey>, psp: PspName, mode: PspMode): boolean {
  return config[pspUrlSetting(psp, mode)] !== '';
}

/** The PSPs configured for `mode`, in the registry's order. */
export function configuredPsps(config: Pick<Config, PspSettingKey>, mode: PspMode): PspName[] {
  return PSP_NAMES.filter((psp) => pspConfigured(config, psp, mode));
}

/** The first PSP's live address setting that is set (SEP_BASE_URL, MELLAT_BASE_URL, …), named in a message; undefined when none is. */
export const liveUrlSettingSet = (config: Pick<Config, PspSettingKey<PspName, 'live'>>) =>
  PSP_NAMES.map((psp) => pspUrlSetting(psp, 'live') as PspSettingKey<PspName, 'live'>).find(
    (name) => config[name] !== '',
  );

/**
 * Every address of the PSPs' pages the configuration gives (each PSP's URL and PAGE_URL of both modes,
 * those set), as origins: where the Pay button may send the customer's browser (the pages' form-action
 * policy). A PSP whose page is on another host than its service gives that host as its PAGE_URL.
 */
export function pspPageOrigins(config: Pick<Config, PspSettingKey>): string[] {
  const urls = pspSettings()
    .filter((s) => s.suffix === 'URL' || s.suffix === 'PAGE_URL')
    .map((s) => config[s.name as PspSettingKey])
    .filter((url) => url !== '');
  return [
    ...new Set(
      urls.flatMap((url) => {
        try {
          return [new URL(url).origin];
        } catch {
          return [];
        }
      }),
    ),
  ];
}

/** Whether any PSP is configured for live payments. */
export function livePspConfigured(config: Pick<Config, PspSettingKey<PspName, 'live'>>): boolean {
  return liveUrlSettingSet(config) !== undefined;
}
