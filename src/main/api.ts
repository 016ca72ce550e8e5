// One API process: `npm run api`. Scale by running more of them.
import { loadConfig } from '../config.ts';
import { createDatabase } from '../db/database.ts';
import { createLogger } from '../logger.ts';
import { createApp } from './http-app.ts';
import { listen } from '../http/server.ts';
import { connectTemporal } from '../temporal/client.ts';
import { runMain } from './run.ts';

await runMain('api', async (config = loadConfig()) => {
  const logger = createLogger(config.LOG_LEVEL, 'api');
  const { db } = createDatabase(config.DATABASE_URL, { queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS, acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT_MS });
  const temporal = await connectTemporal(config);
  const app = createApp({ config, db, temporal: temporal.client, logger });
  const server = await listen(app, config.PORT, config.HOST);
  logger.info({ port: config.PORT, host: config.HOST }, 'API listening');
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await temporal.connection.close();
    await db.destroy();
  };
});
