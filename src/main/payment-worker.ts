/**
 * The payment worker: the workflow bundle and every activity, with their
 * real dependencies (MySQL, the bank, the Temporal client for webhook
 * deliveries). Built here, in an entry point, because the worker is where
 * workflows and activities meet.
 */
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, NativeConnection, Runtime, Worker, type LogLevel, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { createActivities } from '../../activities/index.ts';
import { LegacySandboxBank, type BankAdapter } from '../adapters/bank.ts';
import { banksFromConfig } from '../adapters/banks.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';

export const WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

/** Bundles the workflow code once; tests and benchmarks reuse the bundle across workers. */
export function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } });
}

let runtimeInstalled = false;
/** Sends the Temporal SDK's own logs (warnings and worse) to our structured logger. */
export function installTemporalRuntime(logger: Logger): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const forward = (level: LogLevel, message: string, meta?: Record<string, unknown>) => {
    const target = level === 'ERROR' ? 'error' : level === 'WARN' ? 'warn' : 'debug';
    logger[target]({ component: 'temporal-sdk', ...meta }, message);
  };
  Runtime.install({
    logger: {
      log: forward,
      trace: (m, meta) => forward('TRACE', m, meta),
      debug: (m, meta) => forward('DEBUG', m, meta),
      info: (m, meta) => forward('INFO', m, meta),
      warn: (m, meta) => forward('WARN', m, meta),
      error: (m, meta) => forward('ERROR', m, meta),
    },
  });
}

export interface PaymentWorkerOptions {
  config: Pick<
    Config,
    'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'TEMPORAL_TASK_QUEUE' | 'WEBHOOK_RETRY_SCHEDULE_SECONDS' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_ALLOW_LOOPBACK_IN_TEST'
  > &
    Partial<Pick<Config, 'WORKER_MAX_CACHED_WORKFLOWS'>> &
    Parameters<typeof banksFromConfig>[0];
  db: Db;
  /** Lets activities start webhook deliveries as workflows of their own. */
  temporal: Client;
  logger: Logger;
  bundle?: WorkflowBundleWithSourceMap;
  connection?: NativeConnection;
  /** The old in-worker sandbox bank of payments started before the bank protocol, unless another is given. */
  bank?: BankAdapter;
}

export async function createPaymentWorker({ config, db, temporal, logger, bundle, connection, bank }: PaymentWorkerOptions): Promise<Worker> {
  installTemporalRuntime(logger);
  const conn = connection ?? (await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS }));
  return Worker.create({
    connection: conn,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    ...(bundle === undefined ? { workflowsPath: WORKFLOWS_PATH, bundlerOptions: { ignoreModules: [] } } : { workflowBundle: bundle }),
    ...(config.WORKER_MAX_CACHED_WORKFLOWS ? { maxCachedWorkflows: config.WORKER_MAX_CACHED_WORKFLOWS } : {}),
    activities: createActivities({ db, bank: bank ?? new LegacySandboxBank(), banks: banksFromConfig(config), logger: logger.child({ component: 'activities' }), temporal, config }),
  });
}
