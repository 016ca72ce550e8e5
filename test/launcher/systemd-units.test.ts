/**
 * deploy/systemd stays consistent with the project: every unit runs an npm
 * script that exists and runs a compiled entry point of `npm run build`, long-running ones restart
 * on failure under a dedicated user with hardening, the target pulls them in,
 * and the example environment file holds only settings the gateway reads, with
 * values it accepts. No systemd runs here: this reads the files.
 */
import { pspSettings } from '../../src/psps/profiles.ts';
import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigSchema, loadConfig, requireMailInProduction, requireSecretsInProduction } from '../../src/config.ts';
import { heapLimitOption, memoryCeilingMb } from '../../tools/launcher/memory.ts';

const DIR = 'deploy/systemd';

type Unit = Map<string, Map<string, string[]>>;

/** A unit file as section → key → values (a key may repeat); comments and blank lines dropped. */
function parseUnit(text: string): Unit {
  const unit: Unit = new Map();
  let section: Map<string, string[]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header !== null) {
      section = new Map();
      unit.set(header[1]!, section);
      continue;
    }
    const eq = line.indexOf('=');
    assert.ok(section !== undefined && eq > 0, `not a unit file line: ${raw}`);
    const key = line.slice(0, eq);
    section.set(key, [...(section.get(key) ?? []), line.slice(eq + 1)]);
  }
  return unit;
}

const one = (unit: Unit, section: string, key: string): string | undefined => unit.get(section)?.get(key)?.at(-1);
const words = (unit: Unit, section: string, key: string): string[] =>
  (unit.get(section)?.get(key) ?? []).flatMap((v) => v.split(/\s+/)).filter((w) => w !== '');

describe('deploy/systemd units', () => {
  const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  const files = readdirSync(DIR);
  const services = files.filter((f) => f.endsWith('.service'));
  const units = new Map(
    files
      .filter((f) => f.endsWith('.service') || f.endsWith('.target'))
      .map((f) => [f, parseUnit(readFileSync(join(DIR, f), 'utf8'))]),
  );
  const longRunning = services.filter((f) => one(units.get(f)!, 'Service', 'Type') === 'simple');

  it('has the API, the worker and a target', () => {
    for (const f of ['dargah-api.service', 'dargah-worker.service', 'dargah.target']) assert.ok(files.includes(f), f);
  });

  /** The npm script a command line runs, checked against package.json and the file system. */
  const npmScript = (f: string, key: string, command: string): string => {
    const m = /^\/usr\/bin\/npm run (?:--silent )?([a-z:-]+)$/.exec(command);
    assert.ok(m !== null, `${f}: ${key}=${command} is not "/usr/bin/npm run <script>"`);
    const script = scripts[m[1]!];
    assert.ok(script !== undefined, `${f}: npm script "${m[1]}" is not in package.json`);
    // The compiled file of `npm run build` (dist/ is not in a clean clone: its source must exist).
    const entry = /^node dist\/(\S+)\.js$/.exec(script);
    assert.ok(
      entry !== null && existsSync(`${entry[1]}.ts`),
      `${f}: the script "${m[1]}" (${script}) runs no compiled entry point of an existing source file`,
    );
    return m[1]!;
  };

  it('runs, in every service, npm scripts of package.json that run compiled entry points: api and worker, migrate before the API', () => {
    const run: Record<string, string[]> = {};
    for (const f of services) {
      const u = units.get(f)!;
      assert.equal(u.get('Service')?.get('ExecStart')?.length, 1, `${f}: one ExecStart`);
      run[f] = [...(u.get('Service')?.get('ExecStartPre') ?? []), one(u, 'Service', 'ExecStart')!].map((c) =>
        npmScript(f, 'ExecStart', c),
      );
    }
    assert.deepEqual(run, {
      'dargah-api.service': ['prod:migrate', 'prod:api'],
      'dargah-worker.service': ['prod:worker'],
    });
  });

  it('runs every service as a dedicated user from the checkout with the environment file, hardened', () => {
    for (const f of services) {
      const u = units.get(f)!;
      assert.equal(one(u, 'Service', 'User'), 'dargah', f);
      assert.equal(one(u, 'Service', 'Group'), 'dargah', f);
      assert.equal(one(u, 'Service', 'WorkingDirectory'), '/opt/dargah', f);
      const role = f.replace(/^dargah-|\.service$/g, '');
      assert.deepEqual(
        u.get('Service')?.get('EnvironmentFile'),
        ['/etc/dargah/dargah.env', `/etc/dargah/${role}.env`],
        `${f}: the shared settings, then its own secrets`,
      );
      for (const [key, value] of [
        ['NoNewPrivileges', 'yes'],
        ['ProtectSystem', 'strict'],
        ['ProtectHome', 'yes'],
        ['PrivateTmp', 'yes'],
        ['RestrictSUIDSGID', 'yes'],
        ['CapabilityBoundingSet', ''],
      ] as const) {
        assert.equal(one(u, 'Service', key), value, `${f}: ${key}`);
      }
      // Node's JIT writes and runs machine code: this would stop it from starting.
      assert.notEqual(one(u, 'Service', 'MemoryDenyWriteExecute'), 'yes', f);
    }
  });

  it("bounds the API's and the worker's memory: the heap limit npm start gives them (tools/launcher/memory.ts), under a MemoryMax that holds it", () => {
    for (const role of ['api', 'worker'] as const) {
      const u = units.get(`dargah-${role}.service`)!;
      assert.ok((u.get('Service')?.get('Environment') ?? []).includes(`"NODE_OPTIONS=${heapLimitOption(role)}"`), role);
      const max = /^(\d+)([MG])$/.exec(one(u, 'Service', 'MemoryMax') ?? '');
      assert.ok(max !== null, `${role}: MemoryMax in M or G`);
      assert.ok(
        Number(max[1]) * (max[2] === 'G' ? 1024 : 1) >= memoryCeilingMb(role),
        `${role}: MemoryMax holds its ${memoryCeilingMb(role)} MiB`,
      );
    }
  });

  it('restarts the API and the worker on failure with a delay, never giving up, and ties them to dargah.target', () => {
    const target = units.get('dargah.target')!;
    assert.deepEqual(words(target, 'Unit', 'Wants').sort(), [...longRunning].sort());
    assert.deepEqual(words(target, 'Install', 'WantedBy'), ['multi-user.target']);
    for (const f of longRunning) {
      const u = units.get(f)!;
      assert.equal(one(u, 'Service', 'Restart'), 'on-failure', f);
      assert.match(one(u, 'Service', 'RestartSec') ?? '', /^[0-9]+s$/, f);
      assert.equal(one(u, 'Unit', 'StartLimitIntervalSec'), '0', f);
      assert.ok(words(u, 'Unit', 'PartOf').includes('dargah.target'), f);
      assert.ok(words(u, 'Install', 'WantedBy').includes('dargah.target'), f);
    }
  });

  /** An example environment file's settings. */
  const exampleOf = (file: string): Record<string, string> =>
    Object.fromEntries(
      readFileSync(join(DIR, file), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '' && !l.startsWith('#'))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const),
    );
  const filledIn = (settings: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(settings).map(([k, v]) => [
        k,
        v.replace(/CHANGE-ME[A-Za-z0-9-]*/, randomBytes(24).toString('hex')),
      ]),
    );

  it("gives each process only its own secrets: the PSP credentials in the worker's file, the pages' and dashboard's secrets in the API's, each enough to start in production mode", () => {
    const shared = exampleOf('dargah.env.example');
    const api = exampleOf('api.env.example');
    const worker = exampleOf('worker.env.example');
    const psp = pspSettings()
      .filter((s) => s.secret)
      .map((s) => s.name);
    const apiOnly = ['PAGES_CSRF_SECRET', 'DASHBOARD_SECRETS_KEY'];
    for (const key of [...psp, ...apiOnly]) assert.ok(!(key in shared), `${key} is not in the shared file`);
    for (const key of psp) assert.ok(!(key in api), `${key} is not in the API's file`);
    for (const key of apiOnly) assert.ok(!(key in worker), `${key} is not in the worker's file`);
    for (const key of apiOnly) assert.ok(key in api, `${key} in the API's file`);
    for (const key of pspSettings()
      .filter((s) => s.secret && s.mode === 'live')
      .map((s) => s.name))
      assert.ok(key in worker, `${key} in the worker's file`);
    assert.equal(shared.NODE_ENV, 'production', 'the units run in production mode');
    for (const [role, own] of [
      ['api', api],
      ['worker', worker],
    ] as const) {
      const config = loadConfig(filledIn({ ...shared, ...own }));
      assert.doesNotThrow(() => requireMailInProduction(config), role);
      assert.doesNotThrow(() => requireSecretsInProduction(config, role), `${role} starts with its own files`);
    }
    assert.throws(
      () => requireSecretsInProduction(loadConfig(filledIn({ ...shared, ...worker })), 'api'),
      /PAGES_CSRF_SECRET must be set/,
      "the worker's files do not start an API",
    );
  });

  it('has example environment files with only settings the gateway reads, refused until their placeholders are replaced', () => {
    const settings = {
      ...exampleOf('dargah.env.example'),
      ...exampleOf('api.env.example'),
      ...exampleOf('worker.env.example'),
    };
    // The configuration's settings, and every PSP setting under the name pspSettingName gives it.
    const known = [...Object.keys(ConfigSchema.properties), ...pspSettings().map((s) => s.name)];
    for (const key of Object.keys(settings))
      assert.ok(known.includes(key), `${key} is not a setting of src/config-schema.ts nor of a PSP's profile`);
    for (const key of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'PUBLIC_BASE_URL', 'PAGES_CSRF_SECRET'])
      assert.ok(key in settings, key);
    // Installed as it is, the example must not start: its secrets are placeholders.
    assert.throws(() => loadConfig(settings), /placeholder/);
    assert.doesNotThrow(() => loadConfig(filledIn(settings)));
  });
});
