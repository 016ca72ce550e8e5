/**
 * How long the namespace keeps a closed workflow's history
 * (TEMPORAL_NAMESPACE_RETENTION_DAYS, docs/RETENTION.md#temporal). The
 * launcher sets it on the dev server and the cluster suite's namespace; a
 * deployment sets it where it creates the namespace, and each worker checks
 * it at start, so a namespace left at another period is said once, in the log.
 */
import type { Connection } from '@temporalio/client';
import { msNumberToTs, tsToMs } from '@temporalio/common/lib/time.js';

const DAY_MS = 86_400_000;

/** Sets the namespace's retention to `days` (the other settings of the namespace are left as they are). */
export async function setNamespaceRetention(connection: Connection, namespace: string, days: number): Promise<void> {
  await connection.workflowService.updateNamespace({
    namespace,
    config: { workflowExecutionRetentionTtl: msNumberToTs(days * DAY_MS) },
  });
}

/** The namespace's retention in days (fractions kept). */
export async function namespaceRetentionDays(connection: Connection, namespace: string): Promise<number> {
  const described = await connection.workflowService.describeNamespace({ namespace });
  return tsToMs(described.config?.workflowExecutionRetentionTtl) / DAY_MS;
}

/** One sentence when the namespace keeps histories for another period than `days`; undefined when it agrees. */
export async function namespaceRetentionNotice(
  connection: Connection,
  namespace: string,
  days: number,
): Promise<string | undefined> {
  const actual = await namespaceRetentionDays(connection, namespace);
  if (Math.abs(actual - days) < 1 / 24) return undefined;
  return `Temporal namespace ${namespace} keeps closed workflow histories ${Number(actual.toFixed(2))} day(s), not TEMPORAL_NAMESPACE_RETENTION_DAYS=${days}: set it where the namespace is made (temporal operator namespace update --namespace ${namespace} --retention ${days * 24}h)`;
}
