/**
 * `npm test`, `npm run test:faults|cluster|image` and `npm run test:unit` (main.ts runs them).
 *
 * A whole `npm test`: the static checks beside the unit tier; then the main suite, then the suites after
 * it on a run that passed. With TEST_LANES=1 the suites after it run beside it instead, in a lane
 * of their own, one after another (the fault suite, the cluster suite, the image suite
 * where buildah is installed), each on services of its own. The main suite runs at a lower CPU priority
 * than the lane (priority.ts): the lane's scenarios mostly wait (an outage of 15 to 25 s, a worker's
 * restart) but hold requests and recoveries to bounds on time, so they get a core the moment they ask for
 * one, and the main suite, bound by CPU, takes every cycle they leave. docs/TESTING.md#one-run-two-lanes
 * has the measurements, and why the lanes are not the default yet (fault scenario 03 failed in one of the
 * two whole runs with the main suite in one process).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PrerequisiteError, provideTemporalCli } from './temporal-cli.ts';
import { staticChecks, suiteArgs, unitConfig, unitTier } from './suites.ts';
import {
  readWeights,
  runLabelledMocha,
  runShards,
  slowestFiles,
  splitByWeight,
  suiteFiles,
  type ShardResult,
} from './shards.ts';
import { mainSuiteShards, suiteServices } from './suite-services.ts';
import { provideChromium } from './chromium.ts';
import { provideClusterBinaries, providePostgres } from './temporal-cluster.ts';
import { provideHaproxy } from './balancer.ts';
import { provideHelm, provideK8sCheck } from './kubernetes-tools.ts';
import { CHECKS_NICENESS, descendantsOf, lowerPriority, MAIN_SUITE_NICENESS } from './priority.ts';
import { cleanups, root, say, shutdown, stopChild } from './stack.ts';

type Suite = 'main' | 'faults' | 'cluster' | 'image';

const LANE_INTRODUCTIONS: Record<Exclude<Suite, 'main'>, string> = {
  faults: 'the fault suite (test/faults): it starts its own MariaDB, Temporal server and workers',
  cluster:
    'the cluster suite (test/cluster): a Temporal cluster on its own PostgreSQL, HAProxy, API replicas and workers',
  image: 'the image suite (test/image): the production image built with buildah and run with podman',
};

const configOf = (suite: Suite) =>
  suite === 'main' ? join(root, 'test', '.mocharc.json') : join(root, 'test', suite, '.mocharc.json');

/** What one suite's run left for the closing lines. */
interface SuiteOutcome {
  part: string;
  ms: number;
  code: number;
  failures: string[];
}

/**
 * The main suite, then (a whole run) the suites after it: after it on a run that passed, or with
 * TEST_LANES=1 in a lane beside it. `faults`, `cluster` and `image` run one suite alone.
 */
export async function test(args: string[], suites: Suite[]): Promise<void> {
  const mainOnly = suites[0] === 'main' && args.length > 0; // a filtered run runs the main suite alone
  const whole = suites.includes('main') && !mainOnly;
  // Each part's wall time, printed at the end.
  const times: [string, number][] = [];
  // The static checks' processes, stopped with everything else on Ctrl-C or a failure.
  const checkProcesses = new Set<ChildProcess>();
  const checkStarted = (child: ChildProcess) => {
    const stop = stopChild(child);
    cleanups.push(stop);
    checkProcesses.add(child);
    child.once('exit', () => {
      cleanups.splice(cleanups.indexOf(stop), 1);
      checkProcesses.delete(child);
    });
  };
  // The static checks start first and run beside the unit tier, then beside the main suite at the lowest
  // priority (suites.ts says why): a failure stops the run at once, with its output.
  let checksNiceness: number | undefined = undefined; // the priority until the suites start
  const checks =
    process.env.SKIP_STATIC_CHECKS !== '1' && suites.includes('main')
      ? staticChecks(root, say, checkStarted, () => checksNiceness).then(async (result) => {
          times.push(['static checks', result.ms]);
          if (!result.passed) {
            say('The static checks failed (see above): stopping the run.');
            await shutdown(1);
          }
        })
      : undefined;
  if (whole) {
    const unit = await unitTier(root, say);
    times.push(['unit tier', unit.ms]);
    if (!unit.passed) throw new PrerequisiteError('the unit tier failed (see above)');
    // Before the suites, so a first build (minutes) counts against no test's timeout.
    // The chart test's Helm and tools/k8s-check (test/foundation/helm-chart.test.ts).
    provideHelm();
    provideK8sCheck(say);
  }
  if (suites.includes('cluster') && !mainOnly) {
    provideClusterBinaries();
    providePostgres(say);
    provideHaproxy(say);
  }
  const chromiumProblem = provideChromium(say);
  if (chromiumProblem !== undefined) say(`${chromiumProblem} The browser tests will fail.`);
  // The simulators' admin endpoints need a token, which the tests hold (test/support/bank.ts); the
  // gateway's test API servers listen on 127.0.0.1 at ports of their own, and some stand for a gateway
  // behind TLS at https://pay.example (test/security/response-headers.test.ts).
  const bankSimSettings = {
    BANK_SIM_ADMIN_TOKEN: randomBytes(24).toString('base64url'),
    BANK_SIM_REDIRECT_ORIGINS: 'http://127.0.0.1:*,http://localhost:*,https://pay.example',
  };
  // Files named on the command line run in one process; a whole or filtered (--grep) main suite in shards.
  const filesNamed = suiteArgs(root, configOf('main'), args)[1] !== configOf('main');
  const shardCount = filesNamed || !suites.includes('main') ? 1 : mainSuiteShards();
  const envs: NodeJS.ProcessEnv[] = [];
  for (let shard = 1; shard <= shardCount; shard++)
    envs.push(await suiteServices(shard, bankSimSettings, chromiumProblem));
  const env = envs[0]!;
  // Every copy of the services after the main suite's is the lane's: a suite's own database, Temporal dev
  // server and simulators, so a fault it switches on at a simulator never reaches another suite's payments.
  let nextServices = shardCount + 1;
  const servicesOfItsOwn = async () => ({
    ...(await suiteServices(nextServices++, bankSimSettings, chromiumProblem)),
    // Where a suite run alone keeps its logs and figures (test-artifacts/faults, test-artifacts/cluster …).
    TEST_ARTIFACTS: env.TEST_ARTIFACTS,
  });
  const after = suites.filter((s): s is Exclude<Suite, 'main'> => s !== 'main');
  const inLane = whole && after.length > 0 && process.env.TEST_LANES === '1';
  const outcomes: SuiteOutcome[] = [];
  if (inLane) lowerPriority(descendantsOf(process.pid), MAIN_SUITE_NICENESS); // the main suite's services, started above
  // From here the checks still running yield to every suite.
  checksNiceness = CHECKS_NICENESS;
  lowerPriority(
    [...checkProcesses].flatMap((c) => (c.pid === undefined ? [] : [c.pid])),
    CHECKS_NICENESS,
  );
  if (!suites.includes('main')) {
    // One suite alone: its output as mocha prints it.
    outcomes.push(await runPlain(after[0]!, env, args));
  } else if (inLane) {
    say(
      `Running the main suite at a lower CPU priority, and beside it ${after.map((s) => LANE_INTRODUCTIONS[s]).join('; then ')}. Lines are prefixed [main] (or a shard's number) and with the suite's name.`,
    );
    const lane = (async () => {
      for (const suite of after) {
        const suiteEnv = await servicesOfItsOwn();
        outcomes.push(await runLabelled(suite, suiteEnv, ['--config', configOf(suite)]));
      }
    })();
    outcomes.unshift(await runMain(args, envs, MAIN_SUITE_NICENESS, true));
    await lane;
  } else {
    outcomes.push(await runMain(args, envs, undefined, false));
    for (const suite of mainOnly ? [] : after) {
      if (outcomes.some((o) => o.code !== 0)) break;
      say(`Running ${LANE_INTRODUCTIONS[suite]}…`);
      outcomes.push(await runPlain(suite, env, args));
    }
  }
  await checks;
  times.push(...outcomes.map((o): [string, number] => [o.part, o.ms]));
  if (times.length > 1) say(`Times: ${times.map(([part, ms]) => `${part} ${minutesAndSeconds(ms)}`).join(', ')}.`);
  // The closing list of failures, printed last: CI keeps only the end of the log.
  const failures = outcomes.flatMap((o) => o.failures);
  if (failures.length > 0) {
    say(`\nFailing tests (${failures.length}), the first line of each error:`);
    for (const line of failures) say(line);
  }
  await shutdown(outcomes.find((o) => o.code !== 0)?.code ?? 0);
}

/** The main suite: in shards (TEST_SHARDS), else one mocha process, labelled when a lane prints beside it. */
async function runMain(
  args: string[],
  envs: NodeJS.ProcessEnv[],
  niceness: number | undefined,
  labelled: boolean,
): Promise<SuiteOutcome> {
  const started = Date.now();
  if (envs.length > 1) {
    const groups = splitByWeight(suiteFiles(root, configOf('main')), readWeights(root), envs.length);
    say(
      `Running the main suite in ${envs.length} shards side by side (${groups.map((g) => `${g.length} files`).join(', ')}), each on services of its own; their lines are prefixed [1], [2]…`,
    );
    const results = await runShards(
      root,
      configOf('main'),
      groups,
      envs.map((e) => ({ ...e, DARGAH_SUITE: 'main' })),
      args,
      'shard',
      niceness,
    );
    const ms = Date.now() - started;
    say('\nSlowest files of the main suite:');
    for (const line of slowestFiles(
      root,
      envs.map((e) => e.TEST_ARTIFACTS ?? ''),
      12,
    ))
      say(line);
    for (const r of results) say(`Shard ${r.shard}: ${r.counts.join(', ') || `no counts (mocha exited ${r.code})`}.`);
    return {
      part: `main suite (${envs.length} shards)`,
      ms,
      code: results.find((r) => r.code !== 0)?.code ?? 0,
      failures: results.flatMap((r) => r.failures),
    };
  }
  const env = { ...envs[0]!, DARGAH_SUITE: 'main' };
  if (!labelled) return runPlain('main', env, args);
  const result = await runLabelledMocha(root, 'main', suiteArgs(root, configOf('main'), args), env, niceness);
  return outcomeOf('main', result, Date.now() - started);
}

/** A suite in a labelled mocha process (it prints beside another). */
async function runLabelled(suite: Suite, env: NodeJS.ProcessEnv, args: string[]): Promise<SuiteOutcome> {
  say(`[${suite}] Running ${suite === 'main' ? 'the main suite' : LANE_INTRODUCTIONS[suite]}…`);
  const started = Date.now();
  const result = await runLabelledMocha(root, suite, args, { ...env, DARGAH_SUITE: suite });
  return outcomeOf(suite, result, Date.now() - started);
}

function outcomeOf(suite: Suite, result: ShardResult, ms: number): SuiteOutcome {
  say(`${suite} suite: ${result.counts.join(', ') || `no counts (mocha exited ${result.code})`}.`);
  return { part: `${suite} suite`, ms, code: result.code, failures: result.failures };
}

/** A suite alone in mocha, its output as mocha prints it (its own closing list of failures). */
async function runPlain(suite: Suite, env: NodeJS.ProcessEnv, args: string[]): Promise<SuiteOutcome> {
  const started = Date.now();
  const mocha = spawn(
    process.execPath,
    [join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), ...suiteArgs(root, configOf(suite), args)],
    { cwd: root, stdio: 'inherit', env: { ...env, DARGAH_SUITE: suite } },
  );
  const stop = stopChild(mocha);
  cleanups.push(stop);
  const code = await new Promise<number>((resolve) =>
    mocha.once('exit', (c, signal) => resolve(c ?? (signal === null ? 1 : 130))),
  );
  cleanups.splice(cleanups.indexOf(stop), 1);
  return { part: `${suite} suite`, ms: Date.now() - started, code, failures: [] };
}

/**
 * `npm run test:unit`: the unit tier alone, in processes side by side (suites.ts); unit test files named on
 * the command line, or mocha's options (`--grep`), run in one process.
 */
export async function unit(args: string[]): Promise<void> {
  if (args.length === 0) {
    const result = await unitTier(root, say);
    say(`Times: unit tier ${minutesAndSeconds(result.ms)}.`);
    return shutdown(result.passed ? 0 : 1);
  }
  const mocha = spawn(
    process.execPath,
    [join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), ...suiteArgs(root, unitConfig(root), args)],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TEMPORAL_CLI: provideTemporalCli(), DARGAH_SUITE: 'unit' } },
  );
  cleanups.push(stopChild(mocha));
  const code = await new Promise<number>((resolve) =>
    mocha.once('exit', (c, signal) => resolve(c ?? (signal === null ? 1 : 130))),
  );
  return shutdown(code);
}

/** `ms` as "12 min 05 s" (or "45 s"). */
function minutesAndSeconds(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes === 0 ? `${seconds} s` : `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
}
