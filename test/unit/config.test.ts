import assert from 'node:assert/strict';
import {
  ConfigError,
  DEPRECATED_SETTING_NAMES,
  isProductionMode,
  loadConfig,
  warnDeprecatedSettings,
} from '../../src/config.ts';

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
        (error: unknown) =>
          error instanceof ConfigError && error.message.includes(name) && !error.message.includes(value),
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
      for (const password of [
        'changeme',
        'change-me-now',
        'dargah',
        'passw0rd',
        'letmein',
        'aaaaaaaa',
        'your-password-here',
      ]) {
        refusedWithout({ DATABASE_URL: `mysql://dargah:${password}@mysql:3306/dargah` }, 'DATABASE_URL', password);
      }
      assert.equal(
        new URL(loadConfig({ DATABASE_URL: `mysql://dargah:${RANDOM}@mysql:3306/dargah` }).DATABASE_URL).password,
        RANDOM,
      );
      assert.equal(
        loadConfig({}).DATABASE_URL,
        'mysql://root@127.0.0.1:3306/dargah',
        'no password on a developer machine is fine',
      );
    });
  });

  it('refuses bounds that contradict each other', () => {
    assert.throws(() => loadConfig({ AMOUNT_MIN: '100', AMOUNT_MAX: '10' }), /AMOUNT_MIN/);
    assert.throws(() => loadConfig({ FEE_MIN: '100', FEE_MAX: '10' }), /FEE_MIN/);
  });

  describe("SEP's old setting names (BANK_*)", () => {
    it('are read when the new name is unset, the new name winning when both are set', () => {
      const config = loadConfig({
        BANK_BASE_URL: 'https://sep.example',
        BANK_TERMINAL_ID: '998877',
        BANK_PASSWORD: 'from-the-psp',
        SANDBOX_BANK_URL: 'http://bank-sim:3100',
        SANDBOX_BANK_TERMINAL_ID: '4455',
      });
      assert.deepEqual(
        [
          config.SEP_BASE_URL,
          config.SEP_TERMINAL_ID,
          config.SEP_PASSWORD,
          config.SANDBOX_SEP_URL,
          config.SANDBOX_SEP_TERMINAL_ID,
        ],
        ['https://sep.example', '998877', 'from-the-psp', 'http://bank-sim:3100', '4455'],
      );
      assert.equal(
        loadConfig({ BANK_BASE_URL: 'https://old.example', SEP_BASE_URL: 'https://new.example' }).SEP_BASE_URL,
        'https://new.example',
      );
      assert.equal(
        isProductionMode(loadConfig({ BANK_BASE_URL: 'https://sep.example' })),
        true,
        'a live SEP by its old name is production mode',
      );
      assert.equal(
        loadConfig({ BANK_TIMEOUT_MS: '5000' }).BANK_TIMEOUT_MS,
        5000,
        "BANK_TIMEOUT_MS is every PSP's: not renamed",
      );
    });

    it('log one deprecation warning each, naming the new one, and none when only the new names are used', () => {
      const warnings: string[] = [];
      const logger = { warn: (message: string) => warnings.push(message) };
      warnDeprecatedSettings(logger, {
        BANK_BASE_URL: 'https://sep.example',
        SANDBOX_BANK_URL: 'http://bank-sim:3100',
        BANK_TIMEOUT_MS: '5000',
        SEP_TERMINAL_ID: '1',
      });
      assert.deepEqual(warnings, [
        'BANK_BASE_URL is deprecated: set SEP_BASE_URL instead (BANK_BASE_URL is read only while SEP_BASE_URL is unset)',
        'SANDBOX_BANK_URL is deprecated: set SANDBOX_SEP_URL instead (SANDBOX_BANK_URL is read only while SANDBOX_SEP_URL is unset)',
      ]);
      warnings.length = 0;
      warnDeprecatedSettings(logger, { SEP_BASE_URL: 'https://sep.example', SANDBOX_SEP_URL: 'http://bank-sim:3100' });
      assert.deepEqual(warnings, []);
      assert.deepEqual(Object.values(DEPRECATED_SETTING_NAMES).sort(), [
        'BANK_RECONFIRM_AFTER_SECONDS',
        'SANDBOX_SEP_PAGE_URL',
        'SANDBOX_SEP_PASSWORD',
        'SANDBOX_SEP_TERMINAL_ID',
        'SANDBOX_SEP_URL',
        'SEP_BASE_URL',
        'SEP_PAGE_URL',
        'SEP_PASSWORD',
        'SEP_TERMINAL_ID',
      ]);
    });

    it('keep a PSP address set empty: that PSP is off for the mode, whatever its default', () => {
      assert.equal(loadConfig({ SANDBOX_MELLAT_URL: '' }).SANDBOX_MELLAT_URL, '');
      assert.equal(loadConfig({}).SANDBOX_MELLAT_URL, 'http://127.0.0.1:3101', "unset: Mellat's simulator");
      assert.equal(loadConfig({ SANDBOX_BANK_URL: '' }).SANDBOX_SEP_URL, '', 'the old name set empty too');
    });
  });

  describe('BANK_RECONFIRM_AFTER_SECONDS, once SANDBOX_DELAY_SECONDS (it also sets when live payments are asked again)', () => {
    it('is read from the old name while unset, with a warning, the new name winning when both are set', () => {
      assert.equal(loadConfig({}).BANK_RECONFIRM_AFTER_SECONDS, 10);
      assert.equal(loadConfig({ SANDBOX_DELAY_SECONDS: '4' }).BANK_RECONFIRM_AFTER_SECONDS, 4);
      assert.equal(
        loadConfig({ SANDBOX_DELAY_SECONDS: '4', BANK_RECONFIRM_AFTER_SECONDS: '7' }).BANK_RECONFIRM_AFTER_SECONDS,
        7,
      );
      const warnings: string[] = [];
      warnDeprecatedSettings({ warn: (message: string) => warnings.push(message) }, { SANDBOX_DELAY_SECONDS: '4' });
      assert.deepEqual(warnings, [
        'SANDBOX_DELAY_SECONDS is deprecated: set BANK_RECONFIRM_AFTER_SECONDS instead (SANDBOX_DELAY_SECONDS is read only while BANK_RECONFIRM_AFTER_SECONDS is unset)',
      ]);
    });
  });
});
