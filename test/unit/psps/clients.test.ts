/**
 * Which bank each mode talks to, and where the customer's browser is sent: the
 * server-to-server address and the page's address may differ (a simulator behind
 * docker compose, a PSP whose page has its own host).
 */
import assert from 'node:assert/strict';
import { pspClient, pspClientsFromConfig } from '../../../src/psps/clients.ts';
import { PSP_NAMES, PSP_PROFILES } from '../../../src/psps/profiles.ts';
import { loadConfig } from '../../../src/config.ts';

const banks = (env: Record<string, string>) =>
  pspClientsFromConfig(loadConfig({ PAGES_CSRF_SECRET: 'b7c1e9a4f8306b5e2d7c1a9f4e830c2b7e1d94f3a8065', ...env }));

describe('pspClientsFromConfig', () => {
  it('sends customers to the bank page on the server-to-server address when no page address is set', () => {
    const { test, live } = banks({ SANDBOX_SEP_URL: 'http://127.0.0.1:3100/', SANDBOX_MELLAT_URL: '' });
    assert.equal(test.sep?.pageUrl('tok'), 'http://127.0.0.1:3100/OnlinePG/SendToken?token=tok');
    assert.deepEqual(live, {}, 'no PSP configured: live payments cannot go to a bank');
    assert.equal(test.mellat, undefined, 'SANDBOX_MELLAT_URL set empty: test payments cannot go to mellat');
  });

  it("has every registered PSP's simulator in test mode by default, at its profile's port and terminal, and no live PSP", () => {
    const { test, live } = banks({});
    assert.deepEqual(Object.keys(test), PSP_NAMES);
    for (const psp of PSP_NAMES) {
      assert.equal(test[psp]?.terminalId, PSP_PROFILES[psp].simulator.terminalId, psp);
      assert.equal(
        (test[psp] as { endpoint: { baseUrl: string } } | undefined)?.endpoint.baseUrl,
        `http://127.0.0.1:${PSP_PROFILES[psp].simulator.port}`,
        psp,
      );
    }
    assert.deepEqual(live, {});
  });

  it('makes SEP clients from the old BANK_* names while SEP_* are unset', () => {
    const { test, live } = banks({
      SANDBOX_BANK_URL: 'http://bank-sim:3100',
      BANK_BASE_URL: 'https://psp-api.example',
      BANK_TERMINAL_ID: '998877',
      BANK_PASSWORD: 'from-the-psp',
    });
    assert.equal(test.sep?.endpoint.baseUrl, 'http://bank-sim:3100');
    assert.deepEqual(
      [live.sep?.endpoint.baseUrl, live.sep?.terminalId, live.sep?.endpoint.password],
      ['https://psp-api.example', '998877', 'from-the-psp'],
    );
    assert.equal(banks({ SANDBOX_BANK_URL: '' }).test.sep, undefined, 'the old name set empty turns SEP off too');
  });

  it("sends customers to the page's own address when one is set, for each mode", () => {
    const { test, live } = banks({
      SANDBOX_SEP_URL: 'http://bank-sim:3100',
      SANDBOX_SEP_PAGE_URL: 'http://localhost:3100/',
      SEP_BASE_URL: 'https://psp-api.example',
      SEP_PAGE_URL: 'https://psp-page.example',
      SEP_TERMINAL_ID: '998877',
    });
    assert.equal(test.sep?.pageUrl('a b'), 'http://localhost:3100/OnlinePG/SendToken?token=a%20b');
    assert.equal(live.sep?.pageUrl('tok'), 'https://psp-page.example/OnlinePG/SendToken?token=tok');
  });

  it('has a Mellat client for a mode once its address is set, and picks clients by mode and PSP name', () => {
    const clients = banks({
      SANDBOX_MELLAT_URL: 'http://127.0.0.1:3101/',
      MELLAT_BASE_URL: 'https://bpm.example',
      MELLAT_PAGE_URL: 'https://bpm-page.example/',
      MELLAT_TERMINAL_ID: '4455',
    });
    assert.equal(pspClient(clients, 'test', 'mellat')?.name, 'mellat');
    assert.equal(pspClient(clients, 'test', 'sep')?.name, 'sep');
    assert.equal(pspClient(clients, 'live', 'mellat')?.terminalId, '4455');
    assert.equal(pspClient(clients, 'live', 'sep'), undefined, 'SEP_BASE_URL is not set: no live SEP');
    assert.equal(clients.test.mellat?.endpoint.baseUrl, 'http://127.0.0.1:3101');
    assert.equal(clients.live.mellat?.endpoint.pageBaseUrl, 'https://bpm-page.example');
  });
});
