import { ConfigError, loadConfig, type Config } from '../config.ts';

/**
 * Runs a long-lived process: starts it, stops it cleanly on SIGINT/SIGTERM,
 * and turns a start-up failure into one sentence on stderr and exit code 1.
 */
export async function runMain(name: string, start: (config?: Config) => Promise<() => Promise<void>>): Promise<void> {
  let stop: () => Promise<void>;
  try {
    stop = await start(loadConfig());
  } catch (error) {
    process.stderr.write(`${name}: ${startupMessage(error)}\n`);
    process.exit(1);
  }
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

export function startupMessage(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  const e = error as { code?: string; message?: string };
  if (e.code === 'ECONNREFUSED' || e.code === 'ER_ACCESS_DENIED_ERROR' || e.code === 'ER_BAD_DB_ERROR') {
    return `cannot use MySQL at DATABASE_URL (${e.code}): start MySQL/MariaDB, run the migrations (npm run migrate), or fix DATABASE_URL.`;
  }
  if (/connect|transport|Failed to connect/i.test(e.message ?? '')) {
    return 'cannot reach Temporal at TEMPORAL_ADDRESS: start it (npm start runs a dev server) or fix TEMPORAL_ADDRESS.';
  }
  return e.message ?? String(error);
}
