/**
 * The workflow tests' Temporal: a dev server of its own (the Temporal CLI the
 * bootstrap provides, on a free port, in memory) and the workflow bundle,
 * made once on first use and closed after the whole run (root-hooks.ts).
 * No MySQL: the activities are fakes (fakes.ts).
 */
import type { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { provideTemporalCli } from '../../../tools/launcher/temporal-cli.ts';
import { sourcesWorkflowBundle } from '../../../src/main/payment-worker.ts';
// A bundle with the tracing interceptors exports through this sink (it discards while tracing is off).
import { temporalWorkerTracing, tracingConfigured } from '../../../src/observability/tracing.ts';
import { SEARCH_ATTRIBUTE_TYPES } from '../../../src/domain/payment-workflow.ts';

interface Testbed {
  env: TestWorkflowEnvironment;
  bundle: WorkflowBundleWithSourceMap;
}

let testbed: Promise<Testbed> | undefined;

function getTestbed(): Promise<Testbed> {
  testbed ??= (async () => {
    // Workflow task failures and worker trouble still show; the expected activity failures of the tests do not.
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    // TEMPORAL_CLI, `temporal` on PATH, or the build the bootstrap caches (built here on a first run).
    const cli = provideTemporalCli();
    const [env, bundle] = await Promise.all([
      TestWorkflowEnvironment.createLocal({
        server: {
          executable: { type: 'existing-path', path: cli },
          log: { format: 'pretty', level: 'error' },
          // The custom search attributes the workflow upserts, as tools/launcher/dev-server.ts registers them.
          extraArgs: Object.entries(SEARCH_ATTRIBUTE_TYPES).flatMap(([name, type]) => [
            '--search-attribute',
            `${name}=${type}`,
          ]),
        },
      }),
      sourcesWorkflowBundle(tracingConfigured()),
    ]);
    return { env, bundle };
  })();
  return testbed;
}

/** The workflow bundle every worker of this tier runs: the code committed histories replay against. */
export async function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  return (await getTestbed()).bundle;
}

/** Starts the dev server and bundles the workflows, for a `before` hook with a long timeout. */
export async function prepareWorkflowTests(): Promise<void> {
  await getTestbed();
}

export async function closeWorkflowTests(): Promise<void> {
  if (testbed === undefined) return;
  const { env } = await testbed;
  testbed = undefined;
  await env.teardown();
}

let queues = 0;

/**
 * Runs `body` while a worker of its own (a fresh task queue) executes the
 * workflows with `activities`; the worker stops when `body` settles.
 */
export async function withWorker<T>(
  activities: object,
  body: (t: { client: Client; taskQueue: string }) => Promise<T>,
): Promise<T> {
  const { env, bundle } = await getTestbed();
  queues += 1;
  const taskQueue = `workflow-test-${process.pid}-${queues}`;
  // debugMode runs the workflows on this thread (still in their sandbox) instead of worker threads
  // that each load the bundle again: a worker per test then starts in milliseconds, not a second.
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities,
    debugMode: true,
    sinks: temporalWorkerTracing().sinks,
  });
  return worker.runUntil(body({ client: env.client, taskQueue }));
}
