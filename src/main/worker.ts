// One worker process: `npm run worker`. Scale by running more of them.
import { loadConfig } from '../config.ts';
import { createDatabase } from '../db/database.ts';
import { createLogger } from '../logger.ts';
import { createWorkers } from './payment-worker.ts';
import { webhookTaskQueue } from '../domain/webhook-delivery.ts';
import { connectTemporal, registerSearchAttributes } from '../temporal/client.ts';
import { ensureIdempotencyCleanupSchedule, ensureSettlementSchedule } from '../temporal/schedules.ts';
import { runMain } from './run.ts';

await runMain('worker', async (config = loadConfig()) => {
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  const { db } = createDatabase(config.DATABASE_URL, { queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS, acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT_MS });
  // Operators search payments by these in the Temporal UI; registering is idempotent.
  const temporal = await connectTemporal(config);
  await registerSearchAttributes(temporal.connection, config.TEMPORAL_NAMESPACE);
  // Expired Idempotency-Key records are deleted every 10 minutes; the first worker creates the schedule.
  await ensureIdempotencyCleanupSchedule(temporal.client, config);
  // Settlement runs daily at SETTLEMENT_CRON (Asia/Tehran); the first worker creates the schedule.
  await ensureSettlementSchedule(temporal.client, config);
  // The same connection stays open: activities start webhook deliveries through it.
  // Two workers in this process: payments, and webhook deliveries on their own task queue and slots.
  const workers = await createWorkers({ config, db, temporal: temporal.client, logger });
  const running = Promise.all([workers.payments.run(), workers.webhooks.run()]);
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, webhookTaskQueue: webhookTaskQueue(config.TEMPORAL_TASK_QUEUE) }, 'worker running');
  return async () => {
    workers.payments.shutdown();
    workers.webhooks.shutdown();
    await running;
    await temporal.connection.close();
    await db.destroy();
  };
});
