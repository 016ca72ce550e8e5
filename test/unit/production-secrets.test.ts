/**
 * Production mode refuses to start a process without the secrets it uses (docs/SECURITY.md, the
 * third review's item 4): the API needs PAGES_CSRF_SECRET, DASHBOARD_SECRETS_KEY and CARD_HASH_KEY,
 * the worker CARD_HASH_KEY; each missing one is named in a sentence of its own. A developer
 * machine (no NODE_ENV=production, no live PSP) starts without them, as `npm start` does.
 */
import assert from 'node:assert/strict';
import { ConfigError, loadConfig, requireSecretsInProduction } from '../../src/config.ts';

const KEYS = {
  PAGES_CSRF_SECRET: 'c2b7e1d94f3a8065b1e7d2c9a4f8306e5b2d7c1e9a4f8306b5e2d7c1a9f4e830',
  DASHBOARD_SECRETS_KEY: '5e2d7c1a9f4e830c2b7e1d94f3a8065b1e7d2c9a4f8306e5b2d7c1e9a4f8306b',
  CARD_HASH_KEY: '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b',
};
const without = (name: keyof typeof KEYS, extra: Record<string, string> = { NODE_ENV: 'production' }) => {
  const env: Record<string, string> = { ...KEYS, ...extra };
  delete env[name];
  return loadConfig(env);
};
const refusal = (fn: () => void): string => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  assert.fail('it started');
};

describe('secrets required in production mode', () => {
  for (const name of Object.keys(KEYS) as (keyof typeof KEYS)[]) {
    it(`the API refuses NODE_ENV=production without ${name}, naming it in one sentence`, () => {
      const message = refusal(() => requireSecretsInProduction(without(name), 'api'));
      assert.match(message, new RegExp(`${name} must be set in production mode \\(NODE_ENV is production\\)`));
      for (const other of Object.keys(KEYS).filter((k) => k !== name))
        assert.ok(!message.includes(other), `${other} is set: not named`);
      // One sentence per missing setting: a period ends it, none inside.
      assert.equal(
        message
          .replace(/^Invalid configuration: /, '')
          .split(/\.(\s|$)/)
          .filter((s) => s.trim() !== '').length,
        1,
        message,
      );
    });
  }

  it('names every missing secret at once, a sentence each', () => {
    const message = refusal(() => requireSecretsInProduction(loadConfig({ NODE_ENV: 'production' }), 'api'));
    for (const name of Object.keys(KEYS)) assert.match(message, new RegExp(`${name} must be set in production mode`));
  });

  it('a live PSP (SEP_BASE_URL) is production mode too', () => {
    const message = refusal(() =>
      requireSecretsInProduction(
        without('CARD_HASH_KEY', { SEP_BASE_URL: 'https://psp.example', SEP_TERMINAL_ID: '1' }),
        'worker',
      ),
    );
    assert.match(message, /CARD_HASH_KEY must be set in production mode \(SEP_BASE_URL names a live PSP\)/);
  });

  it('the worker needs CARD_HASH_KEY only: the pages and the dashboard are not its', () => {
    assert.match(
      refusal(() => requireSecretsInProduction(without('CARD_HASH_KEY'), 'worker')),
      /CARD_HASH_KEY must be set/,
    );
    assert.doesNotThrow(() =>
      requireSecretsInProduction(loadConfig({ NODE_ENV: 'production', CARD_HASH_KEY: KEYS.CARD_HASH_KEY }), 'worker'),
    );
  });

  it('starts with every secret set, and on a developer machine without any', () => {
    assert.doesNotThrow(() => requireSecretsInProduction(loadConfig({ ...KEYS, NODE_ENV: 'production' }), 'api'));
    for (const role of ['api', 'worker'] as const)
      assert.doesNotThrow(() => requireSecretsInProduction(loadConfig({}), role));
  });

  it('never echoes a value', () => {
    const message = refusal(() => requireSecretsInProduction(without('CARD_HASH_KEY'), 'api'));
    for (const value of Object.values(KEYS)) assert.ok(!message.includes(value));
  });
});
