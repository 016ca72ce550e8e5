/**
 * Which bank each mode talks to, and where the customer's browser is sent: the
 * server-to-server address and the page's address may differ (a simulator behind
 * docker compose, a PSP whose page has its own host).
 */
import assert from 'node:assert/strict';
import { pspClientsFromConfig } from '../../../src/adapters/psp/clients.ts';
import { loadConfig } from '../../../src/config.ts';

const banks = (env: Record<string, string>) => pspClientsFromConfig(loadConfig({ PAGES_CSRF_SECRET: 'b7c1e9a4f8306b5e2d7c1a9f4e830c2b7e1d94f3a8065', ...env }));

describe('pspClientsFromConfig', () => {
  it('sends customers to the bank page on the server-to-server address when no page address is set', () => {
    const { test, live } = banks({ SANDBOX_BANK_URL: 'http://127.0.0.1:3100/' });
    assert.equal(test.pageUrl('tok'), 'http://127.0.0.1:3100/OnlinePG/SendToken?token=tok');
    assert.equal(live, undefined, 'no PSP configured: live payments cannot go to a bank');
  });

  it("sends customers to the page's own address when one is set, for each mode", () => {
    const { test, live } = banks({
      SANDBOX_BANK_URL: 'http://bank-sim:3100',
      SANDBOX_BANK_PAGE_URL: 'http://localhost:3100/',
      BANK_BASE_URL: 'https://psp-api.example',
      BANK_PAGE_URL: 'https://psp-page.example',
      BANK_TERMINAL_ID: '998877',
    });
    assert.equal(test.pageUrl('a b'), 'http://localhost:3100/OnlinePG/SendToken?token=a%20b');
    assert.equal(live?.pageUrl('tok'), 'https://psp-page.example/OnlinePG/SendToken?token=tok');
  });
});
