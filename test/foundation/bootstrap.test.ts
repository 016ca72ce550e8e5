/**
 * `npm start` on a machine that lacks a prerequisite ends with one sentence
 * that says what to install or start, never a stack trace.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function start(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['tools/launcher/main.ts', 'start'], {
      env: { ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const minimalEnv = () => ({
  PATH: '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/root',
  XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'dargah-cache-')),
});

describe('npm start without its prerequisites', () => {
  it('MySQL unreachable: one sentence that says to start MySQL or set DATABASE_URL', async () => {
    const result = await start({ ...minimalEnv(), DATABASE_URL: 'mysql://root@127.0.0.1:1/dargah' });
    assert.equal(result.code, 1);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0]!, /^MySQL is not usable at 127\.0\.0\.1:1 \(ECONNREFUSED\): start MySQL or MariaDB/);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });

  it('no Temporal CLI and no Go: one sentence that says to install Go or the Temporal CLI', async () => {
    const databaseUrl = new URL(process.env.DATABASE_URL!);
    databaseUrl.pathname = `${databaseUrl.pathname}_prereq`;
    const result = await start({ ...minimalEnv(), DATABASE_URL: databaseUrl.toString() });
    assert.equal(result.code, 1);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(
      lines[0]!,
      /^Go was not found, and it builds the Temporal CLI v[0-9.]+: install Go 1.22 or newer, or install the Temporal CLI/,
    );
  });

  it('a bad setting: one sentence that names the variable', async () => {
    const result = await start({ ...minimalEnv(), PORT: 'eighty' });
    assert.equal(result.code, 1);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, /PORT/);
  });
});
