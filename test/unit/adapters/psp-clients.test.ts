/**
 * Which bank each mode talks to, and where the customer's browser is sent: the
 * server-to-server address and the page's address may differ (a simulator behind
 * docker compose, a PSP whose page has its own host).
 */
import assert from 'node:assert/strict';
import { pspClient, pspClientsFromConfig } from '../../../src/adapters/psp/clients.ts';
import { loadConfig } from '../../../src/config.ts';

const banks = (env: Record<string, string>) => pspClientsFromConfig(loadConfig({ PAGES_CSRF_SECRET: 'b7c1e9a4f8306b5e2d7c1a9f4e830c2b7e1d94f3a8065', ...env }));

describe('pspClientsFromConfig', () => {
  it('sends customers to the bank page on the server-to-server address when no page address is set', () => {
    const { test, live } = banks({ SANDBOX_BANK_URL: 'http://127.0.0.1:3100/' });
    assert.equal(test.sep.pageUrl('tok'), 'http://127.0.0.1:3100/OnlinePG/SendToken?token=tok');
    assert.deepEqual(live, {}, 'no PSP configured: live payments cannot go to a bank');
    assert.equal(test.mellat, undefined, 'no Mellat simulator configured: test payments cannot go to mellat');
  });

  it("sends customers to the page's own address when one is set, for each mode", () => {
    const { test, live } = banks({
      SANDBOX_BANK_URL: 'http://bank-sim:3100',
      SANDBOX_BANK_PAGE_URL: 'http://localhost:3100/',
      BANK_BASE_URL: 'https://psp-api.example',
      BANK_PAGE_URL: 'https://psp-page.example',
      BANK_TERMINAL_ID: '998877',
    });
    assert.equal(test.sep.pageUrl('a b'), 'http://localhost:3100/OnlinePG/SendToken?token=a%20b');
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
    assert.equal(pspClient(clients, 'live', 'sep'), undefined, 'BANK_BASE_URL is not set: no live SEP');
    assert.equal(clients.test.mellat?.endpoint.baseUrl, 'http://127.0.0.1:3101');
    assert.equal(clients.live.mellat?.endpoint.pageBaseUrl, 'https://bpm-page.example');
  });
});
