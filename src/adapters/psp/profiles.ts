/**
 * The registry of PSP profiles: the one list of the PSPs Dargah has a connector for
 * (docs/psps/README.md). Everything that names the PSPs is derived from it: their names, the
 * configuration's settings, the API's enum, the launcher's simulators, compose, the Helm values and
 * the docs' tables. Pure data (profile.ts), so every layer may read it; each connector's code is
 * listed beside it in registry.ts, which the compiler holds to the same names.
 */
import { MELLAT_PROFILE } from './mellat/profile.ts';
import type { PspProfile } from './profile.ts';
import { SEP_PROFILE } from './sep/profile.ts';

export const PSP_PROFILES = {
  sep: SEP_PROFILE,
  mellat: MELLAT_PROFILE,
} as const satisfies Record<string, PspProfile>;

/** The PSPs Dargah has a connector for (the names of configuration, records and docs/psps/). */
export type PspName = keyof typeof PSP_PROFILES;
/** In the registry's order, which is the default route's order. */
export const PSP_NAMES = Object.keys(PSP_PROFILES) as PspName[];

export type PspMode = 'test' | 'live';

/** One setting of the configuration that a PSP's profile gives, in one mode. */
export interface PspSettingOf {
  psp: PspName;
  mode: PspMode;
  /** `URL`, `PAGE_URL`, `TERMINAL_ID` or one of the profile's own suffixes. */
  suffix: string;
  /** Its name in the environment: pspSettingName(psp, mode, suffix). */
  name: string;
  /** Its default: test mode's are the launcher's simulator's, live mode's are '' (not configured). */
  default: string;
  description: string;
  secret: boolean;
}

/**
 * A PSP setting's name in the environment: `SANDBOX_<PSP>_<suffix>` in test mode; `<PSP>_<suffix>` in
 * live mode, where the address is `<PSP>_BASE_URL` (the names Mellat's settings have had since
 * they were first written; SEP's were BANK_*, kept as aliases by the configuration).
 */
export function pspSettingName(psp: PspName, mode: PspMode, suffix: string): string {
  const upper = psp.toUpperCase();
  return mode === 'test' ? `SANDBOX_${upper}_${suffix}` : `${upper}_${suffix === 'URL' ? 'BASE_URL' : suffix}`;
}

/** Every setting of every PSP in both modes, in the registry's order: the configuration's, the docs', compose's and Helm's list. */
export function pspSettings(): PspSettingOf[] {
  return PSP_NAMES.flatMap((psp) => {
    const profile: PspProfile = PSP_PROFILES[psp];
    return (['test', 'live'] as const).flatMap((mode) => {
      const where = mode === 'test' ? `test mode: ${profile.title}'s simulator` : `live mode: ${profile.title}`;
      const common = [
        {
          suffix: 'URL',
          default: mode === 'test' ? `http://127.0.0.1:${profile.simulator.port}` : '',
          description:
            mode === 'test'
              ? `${where} (\`BANK_SIM_PROTOCOL=${psp} npm run bank-sim\`; \`npm start\` runs it); empty: test payments cannot go to ${psp}`
              : `${where}'s IPG address, e.g. ${profile.liveUrlExample}; empty: live payments cannot go to ${psp}`,
          secret: false,
        },
        {
          suffix: 'PAGE_URL',
          default: '',
          description: `${where}: its payment page as customers' browsers reach it, when it differs from ${pspSettingName(psp, mode, 'URL')}; empty: that address`,
          secret: false,
        },
        {
          suffix: 'TERMINAL_ID',
          default: mode === 'test' ? profile.simulator.terminalId : '',
          description: mode === 'test' ? `${where}: its terminal id` : `${where}: the terminal id it gave you`,
          secret: false,
        },
      ];
      const own = profile.settings.map((s) => ({ suffix: s.suffix, default: mode === 'test' ? s.testDefault : '', description: `${where}: ${s.description}`, secret: s.secret }));
      return [...common, ...own].map((s) => ({ psp, mode, name: pspSettingName(psp, mode, s.suffix), ...s }));
    });
  });
}
