// One worker process: `npm run worker`. Scale by running more of them.
import { loadConfig, requireMailInProduction, requireSecretsInProduction, warnDeprecatedSettings } from '../config.ts';
import { createDatabase } from '../db/database.ts';
import { createLogger } from '../logger.ts';
import { createWorkers, installTemporalRuntime, prebuiltWorkflowBundle } from './payment-worker.ts';
import { webhookTaskQueue } from '../domain/webhook-delivery.ts';
import { connectTemporal, registerSearchAttributes } from '../temporal/client.ts';
import { retiredWorkflowsNotice } from '../temporal/retired-workflows.ts';
import { ensureRetentionSchedule, ensureSettlementSchedule, ensureStuckSweepSchedule } from '../temporal/schedules.ts';
import { namespaceRetentionNotice } from '../temporal/namespace-retention.ts';
import { runMain } from './run.ts';
import { pspClientsFromConfig } from '../psps/clients.ts';
import { requireWindowsWithinReversal, skippedPspWarnings } from '../psps/windows.ts';
import { freePort } from './ports.ts';
import { oldestUndeliveredEventAge } from '../db/webhook-backlog.ts';
import {
  observeBankReconciliation,
  observePool,
  observeStuckRecords,
  observeWebhookBacklog,
  observeWorkerThreadHeaps,
  serveMetrics,
} from '../observability/metrics.ts';
import { openDifferences } from '../db/bank-reconciliation.ts';
import { reconcileLookbackStart } from '../domain/bank-reconciliation.ts';
import { tehranDay } from '../domain/calendar.ts';
import { stuckCountsByState } from '../db/stuck.ts';
import { startTracing } from '../observability/tracing.ts';
import { workerMemoryBounds } from './memory-bounds.ts';

await runMain('worker', async (config = loadConfig()) => {
  requireMailInProduction(config);
  requireSecretsInProduction(config, 'worker');
  // A reversal must reach each PSP while it still takes one (docs/BANK.md#windows-from-the-psp).
  requireWindowsWithinReversal(config, pspClientsFromConfig(config));
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  // SEP's old setting names (BANK_*) still work, each with one warning.
  warnDeprecatedSettings(logger);
  // A live PSP the route skips for this verify window (Sadad's 15 minutes), one warning each.
  for (const warning of skippedPspWarnings(config, pspClientsFromConfig(config))) logger.warn(warning);
  // Before the Temporal client and workers: their interceptors exist only when tracing is on.
  const stopTracing = startTracing('dargah-worker');
  // The SDK's own worker metrics (slots, pollers, schedule-to-start) on a port of their own, read by our /metrics below.
  const sdkPort = config.TEMPORAL_SDK_METRICS_PORT === 0 ? await freePort() : config.TEMPORAL_SDK_METRICS_PORT;
  const sdkMetricsUrl = `http://${config.METRICS_HOST.includes(':') ? `[${config.METRICS_HOST}]` : config.METRICS_HOST}:${sdkPort}/metrics`;
  installTemporalRuntime(logger, `${config.METRICS_HOST}:${sdkPort}`);
  const { db, pool } = createDatabase(config.DATABASE_URL, {
    poolSize: config.DATABASE_POOL_SIZE,
    queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
    acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT_MS,
  });
  observePool(pool);
  // The workflow thread's heap, where the workflow cache lives (docs/OPERATIONS.md#a-workers-memory).
  observeWorkerThreadHeaps();
  // Deliveries retry over the schedule's span; a delivery in retry longer than that has given up.
  const schedule = config.WEBHOOK_RETRY_SCHEDULE_SECONDS.split(',').map(Number);
  const retrySpan = schedule.reduce((a, b) => a + b, 0) + schedule.length * (config.WEBHOOK_TIMEOUT_MS / 1000);
  observeWebhookBacklog(() => oldestUndeliveredEventAge(db, { withinSeconds: retrySpan, attempts: schedule.length }));
  // Records past the bound of their waiting state, by state (docs/RELIABILITY.md#waiting-states); alerted on.
  observeStuckRecords(() => stuckCountsByState(db, config));
  // Differences of the PSP terminals' bank reconciliations of the last week (docs/psps/README.md#bank-reconciliation); alerted on.
  observeBankReconciliation(() => openDifferences(db, tehranDay(reconcileLookbackStart(new Date()))));
  // Operators search payments by these in the Temporal UI; registering is idempotent.
  const temporal = await connectTemporal(config);
  await registerSearchAttributes(temporal.connection, config.TEMPORAL_NAMESPACE);
  // Executions of a workflow type this version retired would only fail their tasks here: say so once, at start.
  const retired = await retiredWorkflowsNotice(temporal.client);
  if (retired !== undefined) logger.warn(retired);
  // A namespace that drops histories sooner (or keeps them longer) than the setting says: said once, here.
  // Only a check: a cluster that will not describe its namespace to this worker does not stop it.
  const retention = await namespaceRetentionNotice(
    temporal.connection,
    config.TEMPORAL_NAMESPACE,
    config.TEMPORAL_NAMESPACE_RETENTION_DAYS,
  ).catch(
    (error: unknown) =>
      `the retention of Temporal namespace ${config.TEMPORAL_NAMESPACE} could not be read (${String(error)})`,
  );
  if (retention !== undefined) logger.warn(retention);
  // Rows past their retention period (docs/RETENTION.md) are pruned every 10 minutes; the first worker creates the schedule.
  await ensureRetentionSchedule(temporal.client, config);
  // Settlement runs daily at SETTLEMENT_CRON (Asia/Tehran); the first worker creates the schedule.
  await ensureSettlementSchedule(temporal.client, config);
  // Records past the bound of their waiting state are sent on every STUCK_SWEEP_INTERVAL_SECONDS.
  await ensureStuckSweepSchedule(temporal.client, config);
  // The same connection stays open: activities start webhook deliveries through it.
  // Two workers in this process: payments, and webhook deliveries on their own task queue and slots.
  const bundle = prebuiltWorkflowBundle();
  const workers = await createWorkers({
    config,
    db,
    temporal: temporal.client,
    logger,
    ...(bundle === undefined ? {} : { bundle }),
  });
  const running = Promise.all([workers.payments.run(), workers.webhooks.run()]);
  // One scrape target: our metrics, then the SDK exporter's text (a local request per scrape).
  const metrics = await serveMetrics(config.METRICS_HOST, config.WORKER_METRICS_PORT, async () => {
    const res = await fetch(sdkMetricsUrl, { signal: AbortSignal.timeout(2_000) });
    return res.ok ? res.text() : '';
  });
  logger.info(
    { metrics: `http://${config.METRICS_HOST}:${metrics.port}/metrics`, temporal_sdk_metrics: sdkMetricsUrl },
    'worker metrics listening',
  );
  // What bounds this process's memory (docs/OPERATIONS.md#a-workers-memory), and what leaves it to the machine.
  const { problems, ...bounds } = workerMemoryBounds(config);
  logger.info(bounds, 'worker memory bounds');
  for (const problem of problems) logger.warn({ memory: bounds }, problem);
  logger.info(
    {
      node: process.version,
      workflowBundle: bundle === undefined ? 'bundled at start' : 'prebuilt',
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      webhookTaskQueue: webhookTaskQueue(config.TEMPORAL_TASK_QUEUE),
    },
    'worker running',
  );
  return async () => {
    workers.payments.shutdown();
    workers.webhooks.shutdown();
    await running;
    metrics.server.close();
    await temporal.connection.close();
    await db.destroy();
    await stopTracing();
  };
});
