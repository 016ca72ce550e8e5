import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('configuration from the environment', () => {
  it('has working defaults for a developer machine', () => {
    const config = loadConfig({});
    assert.equal(config.PORT, 3000);
    assert.equal(config.VERIFY_WINDOW_SECONDS, 1800);
    assert.equal(config.TEMPORAL_TASK_QUEUE, 'payments');
    assert.equal(config.PUBLIC_BASE_URL, 'http://localhost:3000');
  });

  it('retries webhooks over about three days by default (10 h steps after the first hours)', () => {
    const delays = loadConfig({}).WEBHOOK_RETRY_SCHEDULE_SECONDS.split(',').map(Number);
    assert.deepEqual(delays.slice(0, 8), [0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
    const hours = delays.reduce((a, b) => a + b, 0) / 3600;
    assert.ok(hours >= 72 && hours < 84, `${hours} h`);
  });

  it('reads numbers from text', () => {
    const config = loadConfig({ PORT: '8080', VERIFY_WINDOW_SECONDS: '5' });
    assert.equal(config.PORT, 8080);
    assert.equal(config.VERIFY_WINDOW_SECONDS, 5);
  });

  for (const [name, value] of [
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['VERIFY_WINDOW_SECONDS', '0'],
    ['DATABASE_URL', 'postgres://x/y'],
    ['TEMPORAL_ADDRESS', 'not an address'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_BASE_URL', 'ftp://example.com'],
  ] as const) {
    it(`refuses ${name}=${value} with a message that names ${name}`, () => {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: unknown) => error instanceof ConfigError && error.message.includes(name),
      );
    });
  }

  describe('secrets', () => {
    const RANDOM = 'c2b7e1d94f3a8065b1e7d2c9a4f8306e5b2d7c1e9a4f8306b5e2d7c1a9f4e830';
    const refusedWithout = (env: Record<string, string>, name: string, value: string) =>
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && error.message.includes(name) && !error.message.includes(value),
        `${name} refused without echoing ${value}`,
      );

    it('refuses a known placeholder for PAGES_CSRF_SECRET at start, without echoing it', () => {
      for (const value of [
        'replace-me-with-a-long-random-secret-0123456789', // the placeholder docker-compose.yml once shipped
        'change-me-change-me-change-me-change-me',
        'CHANGEME_0123456789abcdefghijklmnopqrstuv',
        'this-is-an-example-secret-of-forty-characters',
        'PLACEHOLDER-PLACEHOLDER-PLACEHOLDER-1234',
        'x'.repeat(40),
        'abab'.repeat(10),
      ]) {
        refusedWithout({ PAGES_CSRF_SECRET: value }, 'PAGES_CSRF_SECRET', value);
      }
      assert.equal(loadConfig({ PAGES_CSRF_SECRET: RANDOM }).PAGES_CSRF_SECRET, RANDOM);
    });

    it('refuses a short or placeholder DASHBOARD_SECRETS_KEY at start, without echoing it', () => {
      for (const value of ['too-short-0123456789', 'change-me-change-me-change-me-change-me', 'x'.repeat(40)]) {
        refusedWithout({ DASHBOARD_SECRETS_KEY: value }, 'DASHBOARD_SECRETS_KEY', value);
      }
      assert.equal(loadConfig({ DASHBOARD_SECRETS_KEY: RANDOM }).DASHBOARD_SECRETS_KEY, RANDOM);
      assert.equal(loadConfig({}).DASHBOARD_SECRETS_KEY, '');
    });

    it('refuses a placeholder or well-known password in DATABASE_URL, without echoing it', () => {
      for (const password of ['changeme', 'change-me-now', 'dargah', 'passw0rd', 'letmein', 'aaaaaaaa', 'your-password-here']) {
        refusedWithout({ DATABASE_URL: `mysql://dargah:${password}@mysql:3306/dargah` }, 'DATABASE_URL', password);
      }
      assert.equal(new URL(loadConfig({ DATABASE_URL: `mysql://dargah:${RANDOM}@mysql:3306/dargah` }).DATABASE_URL).password, RANDOM);
      assert.equal(loadConfig({}).DATABASE_URL, 'mysql://root@127.0.0.1:3306/dargah', 'no password on a developer machine is fine');
    });
  });

  it('refuses bounds that contradict each other', () => {
    assert.throws(() => loadConfig({ AMOUNT_MIN: '100', AMOUNT_MAX: '10' }), /AMOUNT_MIN/);
    assert.throws(() => loadConfig({ FEE_MIN: '100', FEE_MAX: '10' }), /FEE_MIN/);
  });
});
