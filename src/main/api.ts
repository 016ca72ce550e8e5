// One API process: `npm run api`. Scale by running more of them.
import { loadConfig, requireMailInProduction, requireSecretsInProduction, warnDeprecatedSettings } from '../config.ts';
import { createDatabase } from '../db/database.ts';
import { createLogger } from '../logger.ts';
import { createApp } from './http-app.ts';
import { drain, listen } from '../http/server.ts';
import { connectTemporal } from '../temporal/client.ts';
import { runMain } from './run.ts';
import { pspClientsFromConfig } from '../psps/clients.ts';
import { requireWindowsWithinReversal, skippedPspWarnings } from '../psps/windows.ts';
import { observePool, serveMetrics } from '../observability/metrics.ts';
import { startTracing } from '../observability/tracing.ts';

await runMain('api', async (config = loadConfig()) => {
  requireMailInProduction(config);
  requireSecretsInProduction(config, 'api');
  // A reversal must reach each PSP while it still takes one (docs/BANK.md#windows-from-the-psp).
  requireWindowsWithinReversal(config, pspClientsFromConfig(config));
  const logger = createLogger(config.LOG_LEVEL, 'api');
  // SEP's old setting names (BANK_*) still work, each with one warning.
  warnDeprecatedSettings(logger);
  // A live PSP the route skips for this verify window (Sadad's 15 minutes), one warning each.
  for (const warning of skippedPspWarnings(config, pspClientsFromConfig(config))) logger.warn(warning);
  // Before the Temporal client: its interceptors exist only when tracing is on.
  const stopTracing = startTracing('dargah-api');
  const { db, pool } = createDatabase(config.DATABASE_URL, {
    poolSize: config.DATABASE_POOL_SIZE,
    queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
    acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT_MS,
  });
  observePool(pool);
  const temporal = await connectTemporal(config);
  const app = createApp({ config, db, temporal: temporal.client, logger });
  const metrics = await serveMetrics(config.METRICS_HOST, config.API_METRICS_PORT);
  const server = await listen(app, config.PORT, config.HOST);
  logger.info(
    {
      port: config.PORT,
      host: config.HOST,
      node: process.version,
      metrics: `http://${config.METRICS_HOST}:${metrics.port}/metrics`,
    },
    'API listening',
  );
  return async () => {
    // The requests in hand finish; a client's next one goes to another API process.
    await drain(server, 2_000);
    metrics.server.close();
    await temporal.connection.close();
    await db.destroy();
    await stopTracing();
  };
});
