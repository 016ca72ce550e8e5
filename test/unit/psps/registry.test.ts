/**
 * The registry of PSPs (docs/ARCHITECTURE.md#the-registry-of-psps): every profile has its connector
 * under its own name, and what the gateway derives from them (the settings, the API's enum, the card
 * rule, the return's reading, the order ids, the report layouts) follows the registry, not a list.
 */
import assert from 'node:assert/strict';
import { parseBankCallback, pspOfReturn } from '../../../src/psps/callbacks.ts';
import { pspClientsFromConfig } from '../../../src/psps/clients.ts';
import { ORIGINAL_PSP, PSP_NAMES, PSP_PROFILES, pspSettingName, pspSettings } from '../../../src/psps/profiles.ts';
import type { PspClient } from '../../../src/psps/psp-client.ts';
import { PSP_CONNECTORS } from '../../../src/psps/registry.ts';
import { pspOrderId, REPORT_LAYOUTS } from '../../../src/psps/reports.ts';
import { ConfigSchema, loadConfig, pspPageOrigins, pspTerminalSettings } from '../../../src/config.ts';
import { PSPS_REPORTING_CARD } from '../../../src/domain/card-restriction.ts';
import { PAYMENT_PSP_NAMES } from '../../../src/domain/payment-schemas.ts';

const PAYMENT = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('the registry of PSPs', () => {
  it('has one connector for every profile, under its name, with the registered profile itself', () => {
    assert.deepEqual(Object.keys(PSP_CONNECTORS), PSP_NAMES);
    for (const psp of PSP_NAMES) {
      assert.equal(PSP_PROFILES[psp].name, psp, `the profile registered as ${psp} is named ${PSP_PROFILES[psp].name}`);
      assert.equal(PSP_CONNECTORS[psp].profile, PSP_PROFILES[psp], `${psp}'s connector carries its registered profile`);
      assert.match(psp, /^[a-z0-9]+$/);
    }
  });

  it("makes each connector's client from its settings: its own name, capabilities and terminal", () => {
    const config = loadConfig({});
    for (const psp of PSP_NAMES) {
      const client: PspClient = PSP_CONNECTORS[psp].client(pspTerminalSettings(config, psp, 'test'), 1_000);
      assert.equal(client.name, psp);
      assert.deepEqual(client.capabilities, PSP_PROFILES[psp].capabilities, psp);
      assert.equal(client.terminalId, PSP_PROFILES[psp].simulator.terminalId, psp);
      // The operations a capability promises are there, and only those.
      const { capture, refund, inquiry } = PSP_PROFILES[psp].capabilities;
      // Where capture is `merchant_verify`, `settle` is the PSP's verify, asked at the merchant's verify.
      assert.equal(
        typeof client.settle === 'function',
        capture === 'settle' || capture === 'merchant_verify',
        `${psp}: settle only where capture is settle or merchant_verify`,
      );
      assert.equal(typeof client.refund === 'function', refund === 'partial', `${psp}: refund only where declared`);
      assert.equal(typeof client.inquire === 'function', inquiry, `${psp}: inquire only where declared`);
    }
  });

  it("gives the configuration every profile's settings in both modes, with their defaults, and nothing the profiles do not name", () => {
    const generated = pspSettings();
    for (const s of generated) {
      const schema = (ConfigSchema.properties as Record<string, { default?: unknown }>)[s.name];
      assert.ok(schema !== undefined, `${s.name} is a setting`);
      assert.equal(schema.default, s.default, s.name);
    }
    const config = loadConfig({});
    for (const psp of PSP_NAMES) {
      assert.equal(
        config[pspSettingName(psp, 'test', 'URL')],
        `http://127.0.0.1:${PSP_PROFILES[psp].simulator.port}`,
        `${psp}'s simulator is test mode's default`,
      );
      assert.equal(config[pspSettingName(psp, 'live', 'URL')], '', `no live ${psp} unless configured`);
      assert.deepEqual(
        Object.keys(pspTerminalSettings(config, psp, 'live')).sort(),
        ['PAGE_URL', 'TERMINAL_ID', 'URL', ...PSP_PROFILES[psp].settings.map((s) => s.suffix)].sort(),
      );
    }
    assert.deepEqual(
      Object.keys(pspClientsFromConfig(config).test),
      PSP_NAMES,
      'every registered PSP runs in test mode by default',
    );
  });

  it('derives the API enum and the PSPs that can hold a payment to its cards', () => {
    assert.deepEqual([...PAYMENT_PSP_NAMES], PSP_NAMES);
    assert.deepEqual(
      [...PSPS_REPORTING_CARD],
      PSP_NAMES.filter((psp) => PSP_PROFILES[psp].namesCardAtVerify),
    );
    assert.ok(PSPS_REPORTING_CARD.includes('sep') && !PSPS_REPORTING_CARD.includes('mellat'));
  });

  it("reads a return by its payment's PSP, or, when none is recorded, by the PSP whose fields they are, SEP last", () => {
    const mellatFields = {
      RefId: 'AF82041a2Bf6989c7fF9',
      ResCode: '0',
      SaleOrderId: pspOrderId('mellat', PAYMENT),
      SaleReferenceId: '1234567890',
    };
    assert.equal(pspOfReturn(mellatFields), 'mellat');
    assert.equal(parseBankCallback(mellatFields, PAYMENT)?.ref_num, '1234567890');
    const sepFields = { State: 'OK', RefNum: 'GmshtyjwKSs1Lw8HoUKQXk8HZl1P1eCvLQbR8BB4Nv', ResNum: PAYMENT };
    assert.equal(pspOfReturn(sepFields), ORIGINAL_PSP);
    assert.equal(parseBankCallback(sepFields, PAYMENT)?.ref_num, sepFields.RefNum);
    assert.equal(pspOfReturn({}), ORIGINAL_PSP, 'nothing recognisable: the original PSP, whose reading refuses it');
    for (const psp of PSP_NAMES.filter((p) => p !== ORIGINAL_PSP)) {
      assert.equal(
        PSP_CONNECTORS[psp].recognisesReturn(sepFields),
        false,
        `${psp} does not take SEP's return for its own`,
      );
    }
  });

  it("names a payment in a PSP's reports by its connector's order id", () => {
    for (const psp of PSP_NAMES) assert.equal(pspOrderId(psp, PAYMENT), PSP_CONNECTORS[psp].orderId(PAYMENT));
    assert.equal(pspOrderId('sep', PAYMENT), PAYMENT);
    assert.match(pspOrderId('mellat', PAYMENT), /^[0-9]{1,16}$/);
  });

  it('has a report layout exactly for the connectors whose profile declares a daily report', () => {
    for (const psp of PSP_NAMES)
      assert.equal(REPORT_LAYOUTS[psp] !== undefined, PSP_PROFILES[psp].capabilities.dailyReport, psp);
  });

  it("allows the pages to send customers to every configured PSP address, each connector's page origin among them", () => {
    const config = loadConfig({
      SEP_BASE_URL: 'https://sep.example',
      SEP_PAGE_URL: 'https://sep-page.example/x',
      MELLAT_BASE_URL: 'https://bpm.example:8443/',
    });
    const origins = pspPageOrigins(config);
    for (const psp of PSP_NAMES) {
      for (const mode of ['test', 'live'] as const) {
        const settings = pspTerminalSettings(config, psp, mode);
        if (settings.URL === '') continue;
        for (const origin of PSP_CONNECTORS[psp].pageOrigins(settings))
          assert.ok(origins.includes(origin), `${psp} ${mode}: ${origin} is allowed`);
      }
    }
    assert.ok(origins.includes('https://sep-page.example') && origins.includes('https://bpm.example:8443'));
  });
});
