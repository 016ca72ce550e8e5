/**
 * The V8 heap limit of each Node process the local stack (`npm start`) and the
 * benchmark start, the same as the deployments give them (deploy/helm values,
 * docker-compose.yml, the systemd units; a test checks they agree): with it
 * and WORKER_MAX_CACHED_WORKFLOWS, a worker's memory is a function of its
 * configuration, not of its uptime (docs/OPERATIONS.md#a-workers-memory).
 * Without it, V8 sizes the heap from the machine's memory (about 4 GiB on a
 * 24 GiB machine) and collects lazily below that. The bank simulator gets
 * none: it stands for a bank, and keeps its whole ledger in memory.
 */

/** MiB of old space per isolate (`--max-old-space-size`); the worker's workflow thread gets the same as its main thread. */
export const HEAP_LIMIT_MB = { worker: 512, api: 256 } as const;

export type HeapRole = keyof typeof HEAP_LIMIT_MB;

/** The Node option that sets a role's heap limit. */
export function heapLimitOption(role: HeapRole): string {
  return `--max-old-space-size=${HEAP_LIMIT_MB[role]}`;
}

/** `env` with the role's heap limit added to NODE_OPTIONS, unless NODE_OPTIONS already sets one (the operator's choice stands). */
export function withHeapLimit(env: NodeJS.ProcessEnv, role: HeapRole): NodeJS.ProcessEnv {
  const options = env.NODE_OPTIONS ?? '';
  if (/--max-old-space-size(-percentage)?[= ]/.test(options)) return env;
  return { ...env, NODE_OPTIONS: `${options} ${heapLimitOption(role)}`.trim() };
}
