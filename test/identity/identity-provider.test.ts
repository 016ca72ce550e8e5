/**
 * The identity provider of test mode through the real stack: the connector the API's configuration
 * makes (identityProviders, SANDBOX_IDENTITY_*), over HTTP, to the identity simulator `npm test` runs
 * as its own process (tools/launcher/identity-simulator.ts; a bare mocha run starts one in process).
 * A test card the PSP simulators' pages print answers its IBAN and owner; an unknown card is refused;
 * an outage of the provider is IdentityUnavailableError, and nothing says the card in full.
 */
import assert from 'node:assert/strict';
import {
  IdentityRefusalError,
  IdentityUnavailableError,
  type IdentityProvider,
} from '../../src/adapters/identity/identity-provider.ts';
import { IDENTITY_TEST_ACCOUNTS, IDENTITY_UNKNOWN_CARD } from '../../src/bank-sim/jibit-identity.ts';
import { SIMULATOR_PROTOCOLS } from '../../src/bank-sim/protocols.ts';
import { isValidSheba } from '../../src/domain/business-documents.ts';
import { identityFault, testIdentityProvider } from '../support/harness.ts';

describe('the identity provider of test mode (the identity simulator, its own process)', () => {
  let provider: IdentityProvider;
  before(async () => {
    provider = await testIdentityProvider();
  });
  afterEach(() => identityFault({ fault: 'clear' }));

  it("answers the IBAN and owner of the card the SEP simulator's page pays with, and the owner of that IBAN", async () => {
    const card = SIMULATOR_PROTOCOLS.sep.page.defaultCard;
    const expected = IDENTITY_TEST_ACCOUNTS.find((a) => a.card === card)!;
    const account = await provider.cardToIban(card);
    assert.equal(account.iban, expected.iban);
    assert.ok(isValidSheba(account.iban));
    assert.equal(account.owner_name, `${expected.owner.firstName} ${expected.owner.lastName}`);
    assert.equal(account.bank, expected.bank);
    assert.deepEqual(await provider.ibanOwner(account.iban), {
      owner_name: account.owner_name,
      bank: expected.bank,
      active: true,
    });
  });

  it('answers every PSP page’s test card', async () => {
    for (const protocol of Object.values(SIMULATOR_PROTOCOLS)) {
      const account = await provider.cardToIban(protocol.page.defaultCard);
      assert.ok(isValidSheba(account.iban), protocol.name);
    }
  });

  it('refuses a card it does not know, saying the card masked only', async () => {
    const error = await provider.cardToIban(IDENTITY_UNKNOWN_CARD).catch((e: unknown) => e);
    assert.ok(error instanceof IdentityRefusalError);
    assert.equal(error.code, 'card.not_valid');
    assert.ok(!error.message.includes(IDENTITY_UNKNOWN_CARD), error.message);
    assert.ok(error.message.includes('603799******0006'), error.message);
  });

  it('is unavailable while the provider is down, and answers again once it is back', async () => {
    const card = SIMULATOR_PROTOCOLS.mellat.page.defaultCard;
    await provider.cardToIban(card);
    await identityFault({ fault: 'down' });
    const error = await provider.cardToIban(card).catch((e: unknown) => e);
    assert.ok(error instanceof IdentityUnavailableError, String(error));
    assert.ok(!error.message.includes(card), error.message);
    await identityFault({ fault: 'clear' });
    assert.ok(isValidSheba((await provider.cardToIban(card)).iban));
  });
});
