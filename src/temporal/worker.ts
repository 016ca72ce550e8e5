import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { createActivities } from '../../activities/index.ts';
import { SandboxBank } from '../../activities/bank.ts';

export const WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

/** Bundles the workflow code once; tests and benchmarks reuse the bundle across workers. */
export function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } });
}

export interface PaymentWorkerOptions {
  config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'TEMPORAL_TASK_QUEUE'>;
  db: Db;
  logger: Logger;
  bundle?: WorkflowBundleWithSourceMap;
  connection?: NativeConnection;
}

export async function createPaymentWorker({ config, db, logger, bundle, connection }: PaymentWorkerOptions): Promise<Worker> {
  const conn = connection ?? (await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS }));
  return Worker.create({
    connection: conn,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    ...(bundle === undefined ? { workflowsPath: WORKFLOWS_PATH, bundlerOptions: { ignoreModules: [] } } : { workflowBundle: bundle }),
    activities: createActivities({ db, bank: new SandboxBank(db), logger: logger.child({ component: 'activities' }) }),
  });
}
