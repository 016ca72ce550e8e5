/**
 * The registry of PSP profiles: the one list of the PSPs Dargah has a connector for
 * (docs/psps/README.md). Everything that names the PSPs is derived from it: their names, the
 * configuration's settings, the API's enum, the launcher's simulators, compose, the Helm values and
 * the docs' tables. Pure data (profile.ts), so every layer may read it; each connector's code is
 * listed beside it in registry.ts, which the compiler holds to the same names.
 */
import { ASANPARDAKHT_PROFILE } from './asanpardakht/profile.ts';
import { MELLAT_PROFILE } from './mellat/profile.ts';
import { PARSIAN_PROFILE } from './parsian/profile.ts';
import type { PspProfile } from './profile.ts';
import { SADAD_PROFILE } from './sadad/profile.ts';
import { SEP_PROFILE } from './sep/profile.ts';
import { PASARGAD_PROFILE } from './pasargad/profile.ts';
import { IRANKISH_PROFILE } from './irankish/profile.ts';
import { SEPEHR_PROFILE } from './sepehr/profile.ts';

export const PSP_PROFILES = {
  sep: SEP_PROFILE,
  mellat: MELLAT_PROFILE,
  asanpardakht: ASANPARDAKHT_PROFILE,
  parsian: PARSIAN_PROFILE,
  sadad: SADAD_PROFILE,
  pasargad: PASARGAD_PROFILE,
  irankish: IRANKISH_PROFILE,
  sepehr: SEPEHR_PROFILE,
} as const satisfies Record<string, PspProfile>;

/** The PSPs Dargah has a connector for (the names of configuration, records and docs/psps/). */
export type PspName = keyof typeof PSP_PROFILES;
/** In the registry's order, which is the default route's order. */
export const PSP_NAMES = Object.keys(PSP_PROFILES) as PspName[];

/** The keys of PSP_PROFILES whose profile names another PSP (none: the line below fails to compile otherwise). */
type MisnamedProfile = { [K in PspName]: (typeof PSP_PROFILES)[K]['name'] extends K ? never : K }[PspName];
// Each profile is registered under its own name: a profile under another key is a compile error here.
export const PROFILES_UNDER_THEIR_NAMES: [MisnamedProfile] extends [never] ? true : { misnamed: MisnamedProfile } =
  true;

/** Whether `name` is one of the registry's PSPs (a record's, a request's or an operator's word for one). */
export const isPspName = (name: string | null | undefined): name is PspName =>
  name !== null && name !== undefined && Object.hasOwn(PSP_PROFILES, name);

/**
 * The PSP of a payment or a return that names none: SEP, the gateway's only PSP before payments
 * recorded theirs (a payment with no `psp` is SEP's, a return with no other PSP's fields SEP's page's).
 */
export const ORIGINAL_PSP = 'sep' satisfies PspName;

export type PspMode = 'test' | 'live';

/** The settings every connector has in each mode (its profile's own come beside them). */
export const COMMON_PSP_SETTINGS = ['URL', 'PAGE_URL', 'TERMINAL_ID'] as const;
/** The suffixes of PSP `N`'s settings: the common ones and its profile's own. */
export type PspSettingSuffix<N extends PspName> =
  (typeof COMMON_PSP_SETTINGS)[number] | (typeof PSP_PROFILES)[N]['settings'][number]['suffix'];
/** The name of a setting in the environment, as pspSettingName spells it, for the compiler. */
export type PspSettingNameOf<N extends PspName, M extends PspMode, S extends string> = M extends 'test'
  ? `SANDBOX_${Uppercase<N>}_${S}`
  : `${Uppercase<N>}_${S extends 'URL' ? 'BASE_URL' : S}`;
/** Every PSP setting's name (of PSPs `N`, in modes `M`): the configuration's typed keys (config-schema.ts). */
export type PspSettingKey<N extends PspName = PspName, M extends PspMode = PspMode> = N extends PspName
  ? M extends PspMode
    ? PspSettingNameOf<N, M, PspSettingSuffix<N>>
    : never
  : never;

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
  /** A secret of a checked shape: that shape and the command that makes a test value of it (PspSetting.make). */
  make?: { shape: string; command: string };
}

/**
 * A PSP setting's name in the environment: `SANDBOX_<PSP>_<suffix>` in test mode; `<PSP>_<suffix>` in
 * live mode, where the address is `<PSP>_BASE_URL` (the names Mellat's settings have had since
 * they were first written; SEP's were BANK_*, still read as aliases by the configuration: src/config.ts).
 */
export function pspSettingName<N extends PspName, M extends PspMode, S extends string>(
  psp: N,
  mode: M,
  suffix: S,
): PspSettingNameOf<N, M, S> {
  const upper = psp.toUpperCase();
  return (
    mode === 'test' ? `SANDBOX_${upper}_${suffix}` : `${upper}_${suffix === 'URL' ? 'BASE_URL' : suffix}`
  ) as PspSettingNameOf<N, M, S>;
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
      const own = profile.settings.map((s) => ({
        suffix: s.suffix,
        default: mode === 'test' ? s.testDefault : '',
        description: `${where}: ${s.description}`,
        secret: s.secret,
        ...('make' in s && s.make !== undefined ? { make: s.make } : {}),
      }));
      return [...common, ...own].map((s) => ({ psp, mode, name: pspSettingName(psp, mode, s.suffix), ...s }));
    });
  });
}
