/**
 * The PSP clients of each mode, from the configuration (docs/BANK.md#configuration, docs/psps/): one
 * per registered connector (registry.ts) whose address is set for that mode, made from its settings
 * (pspSettings: `SANDBOX_<PSP>_*` in test mode, `<PSP>_*` in live mode).
 */
import { pspTerminalSettings, type Config } from '../config.ts';
import { PSP_NAMES, type PspClient, type PspName } from './psp-client.ts';
import { pspSettingName, type PspMode, type PspSettingKey } from './profiles.ts';
import { PSP_CONNECTORS, type PspConnectors } from './registry.ts';

/** What the clients are made of: every PSP setting and the timeout of one call. */
export type BankConfig = Pick<Config, 'BANK_TIMEOUT_MS' | PspSettingKey>;

/** The PSP clients by mode and PSP: a PSP is there once its address is configured. */
export interface PspClients {
  test: Partial<Record<PspName, PspClient>>;
  live: Partial<Record<PspName, PspClient>>;
}

/** The client of PSP `name` for payments of `mode`; undefined when that PSP is not configured for the mode. */
export function pspClient(clients: PspClients, mode: 'test' | 'live', name: PspName): PspClient | undefined {
  return clients[mode][name];
}

/** The terminals configured for `mode`, one per PSP that has one, in the order of PSP_NAMES (the default route's order). */
export function configuredTerminals(
  clients: PspClients,
  mode: 'test' | 'live',
): { psp: PspName; terminal_id: string }[] {
  return PSP_NAMES.flatMap((psp) => {
    const client = pspClient(clients, mode, psp);
    return client === undefined ? [] : [{ psp, terminal_id: client.terminalId }];
  });
}

/** The client class of PSP `N`'s connector (SepClient for sep, …). */
export type ConnectorClient<N extends PspName> = ReturnType<PspConnectors[N]['client']>;
/** One mode's clients, each typed by its connector's class. */
export type ConfiguredModeClients = { [N in PspName]?: ConnectorClient<N> };

/** What the configuration gives: the clients by mode and PSP, typed by protocol (the payouts go through the SEP terminal of their mode). */
export interface ConfiguredPspClients extends PspClients {
  test: ConfiguredModeClients;
  live: ConfiguredModeClients;
}

/** The clients of `mode`: each registered PSP whose address setting for the mode is non-empty. */
function modeClients(config: BankConfig, mode: PspMode): ConfiguredModeClients {
  const clients: Partial<Record<PspName, PspClient>> = {};
  for (const psp of PSP_NAMES) {
    if (config[pspSettingName(psp, mode, 'URL')] === '') continue;
    clients[psp] = PSP_CONNECTORS[psp].client(pspTerminalSettings(config, psp, mode), config.BANK_TIMEOUT_MS);
  }
  // Each client is its own connector's (the loop above): the registry's types say which class.
  return clients as ConfiguredModeClients;
}

export function pspClientsFromConfig(config: BankConfig): ConfiguredPspClients {
  return { test: modeClients(config, 'test'), live: modeClients(config, 'live') };
}
