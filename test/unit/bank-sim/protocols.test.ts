/**
 * The simulator's table of protocols (src/bank-sim/protocols.ts) and the gateway's registry of PSPs
 * (src/psps/profiles.ts) name the same PSPs, and each simulator's defaults are its profile's:
 * the simulator may import nothing of the gateway, so this test holds the two together.
 */
import assert from 'node:assert/strict';
import { PSP_NAMES, PSP_PROFILES } from '../../../src/psps/profiles.ts';
import { SIMULATOR_PROTOCOLS, simulatorProtocol } from '../../../src/bank-sim/protocols.ts';

describe("the simulator's protocols", () => {
  it('are the PSPs of the registry, in its order, each under its own name', () => {
    assert.deepEqual(Object.keys(SIMULATOR_PROTOCOLS), PSP_NAMES);
    for (const [name, protocol] of Object.entries(SIMULATOR_PROTOCOLS)) assert.equal(protocol.name, name);
  });

  it("default to their profile's simulator: its port, its terminal, its own time to give back an unverified payment, its settings' test values", () => {
    for (const psp of PSP_NAMES) {
      const { defaults } = SIMULATOR_PROTOCOLS[psp];
      const profile = PSP_PROFILES[psp];
      assert.equal(defaults.port, profile.simulator.port, psp);
      assert.equal(defaults.terminalId, profile.simulator.terminalId, psp);
      assert.equal(defaults.autoReverseSeconds, profile.simulator.autoReverseSeconds, psp);
      const own = Object.fromEntries(profile.settings.filter((s) => !s.secret).map((s) => [s.suffix, s.testDefault]));
      assert.deepEqual(
        defaults.settings,
        own,
        `${psp}: the simulator reads BANK_SIM_<suffix> for each of the profile's settings but the password`,
      );
      const secrets = profile.settings.filter((s) => s.secret && s.suffix !== 'PASSWORD').map((s) => s.suffix);
      assert.deepEqual(
        defaults.secretSettings ?? [],
        secrets,
        `${psp}: and for each of its secret ones but the password`,
      );
    }
  });

  it('answer each call through routes or a listener, never neither', () => {
    for (const protocol of Object.values(SIMULATOR_PROTOCOLS))
      assert.ok(protocol.routes !== undefined || protocol.listen !== undefined, protocol.name);
    assert.equal(simulatorProtocol('nope'), undefined);
    assert.equal(simulatorProtocol('toString'), undefined, "only the table's own names");
  });
});
