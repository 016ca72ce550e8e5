/**
 * The simulator's protocols, one per PSP Dargah has a connector for, by the PSP's name (BANK_SIM_PROTOCOL):
 * a new PSP's simulator is its module (simulator-protocol.ts says what it exports) and its line here.
 * The same names as the gateway's registry (src/psps/profiles.ts), which the simulator may not
 * import (it is the bank, not the gateway): test/unit/bank-sim/protocols.test.ts holds the two equal.
 */
import { ASANPARDAKHT_SIMULATOR } from '../psps/asanpardakht/simulator.ts';
import { MELLAT_SIMULATOR } from '../psps/mellat/simulator.ts';
import { PARSIAN_SIMULATOR } from '../psps/parsian/simulator.ts';
import { SADAD_SIMULATOR } from '../psps/sadad/simulator.ts';
import { SEP_SIMULATOR } from '../psps/sep/simulator.ts';
import type { SimulatorProtocol } from './simulator-protocol.ts';
import { PASARGAD_SIMULATOR } from '../psps/pasargad/simulator.ts';
import { IRANKISH_SIMULATOR } from '../psps/irankish/simulator.ts';
import { SEPEHR_SIMULATOR } from '../psps/sepehr/simulator.ts';

export const SIMULATOR_PROTOCOLS = {
  sep: SEP_SIMULATOR,
  mellat: MELLAT_SIMULATOR,
  asanpardakht: ASANPARDAKHT_SIMULATOR,
  parsian: PARSIAN_SIMULATOR,
  sadad: SADAD_SIMULATOR,
  pasargad: PASARGAD_SIMULATOR,
  irankish: IRANKISH_SIMULATOR,
  sepehr: SEPEHR_SIMULATOR,
} as const satisfies Record<string, SimulatorProtocol>;

export type SimulatorProtocolName = keyof typeof SIMULATOR_PROTOCOLS;

/** The protocol named `name`, or undefined when the simulator speaks no such protocol. */
export function simulatorProtocol(name: string): SimulatorProtocol | undefined {
  return Object.hasOwn(SIMULATOR_PROTOCOLS, name) ? SIMULATOR_PROTOCOLS[name as SimulatorProtocolName] : undefined;
}
