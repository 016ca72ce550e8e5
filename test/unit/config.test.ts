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

  it('refuses bounds that contradict each other', () => {
    assert.throws(() => loadConfig({ AMOUNT_MIN: '100', AMOUNT_MAX: '10' }), /AMOUNT_MIN/);
    assert.throws(() => loadConfig({ FEE_MIN: '100', FEE_MAX: '10' }), /FEE_MIN/);
  });
});
