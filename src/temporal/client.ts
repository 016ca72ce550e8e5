import {
  Client,
  Connection,
  WorkflowExecutionAlreadyStartedError,
  type WorkflowStartOptions,
} from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import type { Config } from '../config.ts';
import { temporalClientInterceptors } from '../observability/tracing.ts';
import { SEARCH_ATTRIBUTE_TYPES } from '../domain/payment-workflow.ts';
import proto from '@temporalio/proto';

const { temporal } = proto;

export interface TemporalClient {
  client: Client;
  connection: Connection;
}

/** One connection per process, shared by every request. */
export async function connectTemporal(
  config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE'>,
): Promise<TemporalClient> {
  const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS, connectTimeout: '5s' });
  // With tracing on, starts and Updates carry the caller's trace into the workflow.
  const interceptors = temporalClientInterceptors();
  const client = new Client({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    ...(interceptors === undefined ? {} : { interceptors }),
  });
  return { client, connection };
}

const INDEXED_VALUE_TYPE = {
  Keyword: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  Int: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT,
} as const;

/**
 * Registers the payment search attributes on a cluster that lacks them (the
 * dev server gets them from its command line; an existing cluster from here).
 */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set([
    ...Object.keys(existing.customAttributes ?? {}),
    ...Object.keys(existing.systemAttributes ?? {}),
  ]);
  const missing = Object.entries(SEARCH_ATTRIBUTE_TYPES).filter(([name]) => !known.has(name));
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map(([name, type]) => [name, INDEXED_VALUE_TYPE[type]])),
  });
}

/**
 * Starts a workflow at most once per id: a retried caller finds the run it
 * started before (USE_EXISTING), and a run that already finished is never
 * started again (REJECT_DUPLICATE; that refusal counts as done).
 */
export async function startWorkflowOnce<T extends Workflow>(
  temporal: Client,
  workflowType: string,
  options: Omit<WorkflowStartOptions<T>, 'workflowIdReusePolicy' | 'workflowIdConflictPolicy'>,
): Promise<void> {
  try {
    await temporal.workflow.start<T>(workflowType, {
      ...options,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'USE_EXISTING',
    } as WorkflowStartOptions<T>);
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    throw error;
  }
}
