/**
 * The registry of PSP connectors: each PSP of the profiles' registry (profiles.ts) with its code, one
 * line each. The compiler asks for every name of PSP_PROFILES and holds each connector's profile to
 * its key (a unit test checks the same at run time). Everything in the gateway that differs by PSP
 * reads it: the clients of the configuration (clients.ts), the return's reading (callbacks.ts), the
 * order ids of the reports (reports.ts). Adding a PSP is its folder, its profile's line in profiles.ts
 * and its connector's line here (docs/ARCHITECTURE.md#the-registry-of-psps).
 */
import { ASANPARDAKHT_CONNECTOR } from './asanpardakht/index.ts';
import type { PspConnector } from './connector.ts';
import { MELLAT_CONNECTOR } from './mellat/index.ts';
import { PARSIAN_CONNECTOR } from './parsian/index.ts';
import { PSP_NAMES, PSP_PROFILES, type PspName } from './profiles.ts';
import { SADAD_CONNECTOR } from './sadad/index.ts';
import { SEP_CONNECTOR } from './sep/index.ts';
import { PASARGAD_CONNECTOR } from './pasargad/index.ts';
import { IRANKISH_CONNECTOR } from './irankish/index.ts';
import { SEPEHR_CONNECTOR } from './sepehr/index.ts';

export const PSP_CONNECTORS = {
  sep: SEP_CONNECTOR,
  mellat: MELLAT_CONNECTOR,
  asanpardakht: ASANPARDAKHT_CONNECTOR,
  parsian: PARSIAN_CONNECTOR,
  sadad: SADAD_CONNECTOR,
  pasargad: PASARGAD_CONNECTOR,
  irankish: IRANKISH_CONNECTOR,
  sepehr: SEPEHR_CONNECTOR,
} as const satisfies {
  [N in PspName]: PspConnector & { readonly profile: (typeof PSP_PROFILES)[N] & { readonly name: N } };
};

export type PspConnectors = typeof PSP_CONNECTORS;

/** The connector of PSP `psp`. */
export function pspConnector(psp: PspName): PspConnector {
  return PSP_CONNECTORS[psp];
}

/** Every connector, in the registry's order (the default route's). */
export const pspConnectors = (): PspConnector[] => PSP_NAMES.map(pspConnector);
