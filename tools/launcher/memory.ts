/**
 * The V8 heap limits of the Node processes the local stack (`npm start`) and
 * the benchmark start, the same as the deployments give them (the image,
 * deploy/helm values, docker-compose.yml, the systemd units; tests check they
 * agree): with them and WORKER_MAX_CACHED_WORKFLOWS, a worker's memory is a
 * function of its configuration, not of its uptime or of the machine
 * (docs/OPERATIONS.md#a-workers-memory). Without them, V8 sizes the heap from
 * the machine's memory (about 4 GiB on a 24 GiB machine) and lets it grow
 * lazily below that. The bank simulator gets none: it stands for a bank, and
 * keeps its whole ledger in memory.
 */

/** Young generation per semi-space: V8 keeps three (two semi-spaces and the new large-object space), at most 3 × this. Node 24's default would be 64 MiB. */
export const SEMI_SPACE_MB = 16;

/**
 * Per role: old space per isolate (`--max-old-space-size`), the isolates (the worker's main
 * thread and the Temporal SDK's workflow thread each get the limit), and what the process holds
 * outside the V8 heaps (Node itself, the SDK's native core and its per-workflow state, code, the
 * MySQL pool's buffers), measured with a margin.
 */
export const HEAP_LIMITS = {
  worker: { oldSpaceMb: 512, isolates: 2, nativeMb: 256 },
  api: { oldSpaceMb: 256, isolates: 1, nativeMb: 128 },
} as const;

export type HeapRole = keyof typeof HEAP_LIMITS;

/** The Node options that set a role's heap limit. */
export function heapLimitOption(role: HeapRole): string {
  return `--max-old-space-size=${HEAP_LIMITS[role].oldSpaceMb} --max-semi-space-size=${SEMI_SPACE_MB}`;
}

/** The most memory a role's process can hold: its isolates at their limits, and the rest. A container's memory limit must hold it. */
export function memoryCeilingMb(role: HeapRole): number {
  const { oldSpaceMb, isolates, nativeMb } = HEAP_LIMITS[role];
  return isolates * (oldSpaceMb + 3 * SEMI_SPACE_MB) + nativeMb;
}

/** `env` with the role's heap limit added to NODE_OPTIONS, unless NODE_OPTIONS already sets one (the operator's choice stands). */
export function withHeapLimit(env: NodeJS.ProcessEnv, role: HeapRole): NodeJS.ProcessEnv {
  const options = env.NODE_OPTIONS ?? '';
  if (/--max-old-space-size(-percentage)?[= ]/.test(options)) return env;
  return { ...env, NODE_OPTIONS: `${options} ${heapLimitOption(role)}`.trim() };
}
