/**
 * No Docker engine runs on the development machines, so docker-compose.yml
 * is kept correct here: it parses, names the services of the production
 * topology with pinned images — the versions the cluster suite runs — runs the
 * very configuration files the cluster suite runs (deploy/temporal,
 * deploy/haproxy: mounted, not copied), and gives the gateway exactly the
 * settings the code reads, pointing at the services that provide them. It also
 * keeps it safe: operator ports on 127.0.0.1 only, every secret required from
 * the environment (never a value in the file), and the gateway on its own
 * least-privilege MySQL user created by the mounted init script.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  ConfigSchema,
  loadConfig,
  migrationDatabaseUrl,
  requireMailInProduction,
  requireSecretsInProduction,
} from '../../src/config.ts';
import { heapLimitOption, memoryCeilingMb, type HeapRole } from '../../tools/launcher/memory.ts';
import { TEMPORAL_SERVER_VERSION, TEMPORAL_UI_VERSION } from '../../tools/launcher/temporal-cluster.ts';
import { compose, environmentOf, SECRETS } from '../support/compose.ts';
import { PSP_NAMES, PSP_PROFILES, pspSettingName, pspSettings } from '../../src/psps/profiles.ts';
import { pspClientsFromConfig } from '../../src/psps/clients.ts';
import { sadadKey } from '../../src/psps/sadad/mapping.ts';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
/** The roles of the image's entry point (deploy/image/dargah.mjs), which a service's command names. */
const ROLES = [
  ...(/const roles = \{([^}]*)\}/.exec(readFileSync('deploy/image/dargah.mjs', 'utf8'))?.[1] ?? '').matchAll(
    /^\s*'?([\w-]+)'?:/gm,
  ),
].map((m) => m[1]!);
/** The image's own variables (its HEALTHCHECK's) and Node's (the heap limit), besides the gateway's configuration. */
const IMAGE_VARIABLES = new Set(['HEALTHCHECK_URL', 'NODE_OPTIONS']);
const services = compose.services;
const GATEWAY = ['api-a', 'api-b', 'worker-a', 'worker-b'];
/** The bank simulators, one per PSP of the registry. */
const SIMULATORS = PSP_NAMES.map((psp) => `bank-sim-${psp}`);
/** The secrets only the worker uses: the PSPs' secret settings (only the worker calls a PSP). */
const PSP_SECRETS = pspSettings()
  .filter((s) => s.secret)
  .map((s) => s.name);
/**
 * The settings the code reads: the configuration's, and every PSP setting of the registry under the
 * name pspSettingName gives it (which the configuration reads, its old BANK_* names as aliases).
 */
const KNOWN_SETTINGS = new Set([...Object.keys(ConfigSchema.properties), ...pspSettings().map((s) => s.name)]);
/** The secrets only the API uses: the pages' CSRF secret and the dashboard's sealing key. */
const API_SECRETS = ['PAGES_CSRF_SECRET', 'DASHBOARD_SECRETS_KEY'];
const APIS = ['api-a', 'api-b'];
const WORKERS = ['worker-a', 'worker-b'];
const TEMPORAL_SERVICES = [
  'temporal-frontend-a',
  'temporal-frontend-b',
  'temporal-history',
  'temporal-matching',
  'temporal-worker',
];

const INIT_DIR = 'deploy/mysql-init';
const initScripts = () =>
  existsSync(INIT_DIR) ? ['01-users.sh'].map((f) => join(INIT_DIR, f)).filter((f) => existsSync(f)) : [];

/** The GRANT statements of the init script: user → the databases it is granted, and how. */
function grants(): { user: string; on: string; privileges: string; withGrantOption: boolean }[] {
  const sql = initScripts()
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n')
    .replace(/\\`/g, '`');
  return [...sql.matchAll(/GRANT\s+([\s\S]+?)\s+ON\s+(\S+)\s+TO\s+'([^']+)'@'[^']*'([^;]*);/gi)].map((m) => ({
    privileges: m[1]!.toUpperCase(),
    on: m[2]!,
    user: m[3]!,
    withGrantOption: /GRANT\s+OPTION/i.test(m[4]!),
  }));
}

describe('docker-compose.yml', () => {
  it('describes the production topology: MySQL 8, a Temporal cluster on PostgreSQL 15, its UI, HAProxy, two API replicas and two workers, a bank simulator per PSP, Prometheus and Grafana, at the versions the cluster suite runs', () => {
    assert.deepEqual(
      Object.keys(services).sort(),
      [
        ...GATEWAY,
        ...TEMPORAL_SERVICES,
        ...SIMULATORS,
        'grafana',
        'haproxy',
        'migrate',
        'mysql',
        'postgres',
        'prometheus',
        'temporal-namespace',
        'temporal-schema',
        'temporal-ui',
      ].sort(),
    );
    assert.match(services.mysql!.image!, /^mysql:8\./);
    assert.match(
      services.postgres!.image!,
      /^postgres:15\./,
      "the major version the suite runs (Debian's postgresql-15)",
    );
    for (const name of TEMPORAL_SERVICES)
      assert.equal(
        services[name]!.image,
        `temporalio/server:${TEMPORAL_SERVER_VERSION.slice(1)}`,
        `${name}: the server version the suite builds`,
      );
    for (const name of ['temporal-schema', 'temporal-namespace'])
      assert.equal(services[name]!.image, `temporalio/auto-setup:${TEMPORAL_SERVER_VERSION.slice(1)}`);
    assert.equal(
      services['temporal-ui']!.image,
      `temporalio/ui:${TEMPORAL_UI_VERSION.slice(1)}`,
      'the UI server version the suite builds',
    );
    assert.equal(services['temporal-ui']!.environment!.TEMPORAL_ADDRESS, 'haproxy:7233');
    assert.equal(
      services['temporal-ui']!.environment!.TEMPORAL_DISABLE_WRITE_ACTIONS,
      'true',
      'the UI cannot terminate, signal or start a workflow',
    );
    assert.match(services.haproxy!.image!, /^haproxy:2\.6\./, 'the HAProxy series Debian 12 ships (the suite runs it)');
  });

  it('runs every Temporal service on the configuration file the cluster suite runs, with the settings it reads', () => {
    const template = readFileSync('deploy/temporal/cluster.yaml', 'utf8');
    const read = new Set([...template.matchAll(/env "([A-Z_]+)"/g)].map((m) => m[1]!));
    const required = [...template.matchAll(/env "([A-Z_]+)" \| quote/g)].map((m) => m[1]!);
    for (const name of TEMPORAL_SERVICES) {
      const service = services[name]!;
      assert.ok(
        service.volumes?.includes('./deploy/temporal:/etc/dargah/temporal:ro'),
        `${name} mounts deploy/temporal`,
      );
      const command = service.entrypoint!.join(' ');
      assert.match(
        command,
        /temporal-server --root \/etc\/dargah --config temporal --env cluster /,
        `${name} runs deploy/temporal/cluster.yaml`,
      );
      assert.equal(
        /--service (\w+)/.exec(command)?.[1],
        name.replace(/^temporal-/, '').replace(/-[ab]$/, ''),
        `${name} runs its own service`,
      );
      const env = environmentOf(name);
      for (const variable of Object.keys(env))
        assert.ok(read.has(variable), `${name} sets ${variable}, which cluster.yaml does not read`);
      for (const variable of required) assert.ok(env[variable] !== undefined, `${name} sets ${variable}`);
      assert.equal(
        env.POSTGRES_PASSWORD,
        environmentOf('postgres').POSTGRES_PASSWORD,
        'the password PostgreSQL was given',
      );
      assert.equal(env.POSTGRES_USER, environmentOf('postgres').POSTGRES_USER);
      assert.equal(
        env.PUBLIC_FRONTEND_ADDRESS,
        'haproxy:7233',
        'its worker reaches the frontends through the balancer',
      );
      assert.ok(
        existsSync(join('deploy/temporal', env.DYNAMIC_CONFIG_FILE!.replace('/etc/dargah/temporal/', ''))),
        'the dynamic configuration is in the mounted directory',
      );
    }
    const schema = services['temporal-schema']!;
    assert.ok(schema.volumes?.includes('./deploy/temporal:/etc/dargah/temporal:ro'));
    assert.deepEqual(
      schema.entrypoint,
      ['sh', '/etc/dargah/temporal/setup-schema.sh'],
      'the schema script the suite runs',
    );
    const script = readFileSync('deploy/temporal/setup-schema.sh', 'utf8');
    for (const variable of new Set([...script.matchAll(/\$\{?([A-Z_]+)/g)].map((m) => m[1]!))) {
      assert.ok(
        environmentOf('temporal-schema')[variable] !== undefined,
        `temporal-schema sets ${variable}, which setup-schema.sh reads`,
      );
    }
  });

  it('puts HAProxy with the configuration the cluster suite runs in front of both API replicas and both frontends', () => {
    const haproxy = services.haproxy!;
    assert.ok(
      haproxy.volumes?.includes('./deploy/haproxy:/usr/local/etc/haproxy:ro'),
      'deploy/haproxy mounted where the image reads haproxy.cfg',
    );
    const env = environmentOf('haproxy');
    const cfg = readFileSync('deploy/haproxy/haproxy.cfg', 'utf8')
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n');
    for (const variable of new Set([...cfg.matchAll(/"\$\{([A-Z_]+)\}/g)].map((m) => m[1]!)))
      assert.ok(env[variable] !== undefined, `haproxy sets ${variable}`);
    assert.equal(env.HAPROXY_ERRORS, '/usr/local/etc/haproxy');
    assert.deepEqual([env.API_A, env.API_B], ['api-a:3000', 'api-b:3000']);
    for (const name of ['api-a', 'api-b'])
      assert.equal(loadConfig(environmentOf(name)).PORT, 3000, `${name} listens where the balancer sends`);
    assert.deepEqual(
      [env.FRONTEND_A, env.FRONTEND_B],
      ['temporal-frontend-a:7233', 'temporal-frontend-b:7233'],
      "the frontends at cluster.yaml's default gRPC port",
    );
    assert.deepEqual(
      environmentOf('api-a'),
      environmentOf('api-b'),
      'the replicas share every setting (CSRF secret, rate-limit store)',
    );
    assert.equal(environmentOf('api-a').RATE_LIMIT_STORE, 'mysql');
    // HAProxy's X-Forwarded-For is believed (the client's address for throttles and the audit log), and the list loads.
    assert.match(loadConfig(environmentOf('api-a')).TRUSTED_PROXIES, /^\d+\.\d+\.\d+\.\d+\/\d+/);
  });

  it('pins every image to a version', () => {
    for (const [name, service] of Object.entries(services)) {
      assert.ok(service.image !== undefined, `${name} has an image`);
      assert.doesNotMatch(service.image, /:latest$|^[^:]+$/, `${name} pins its image`);
    }
  });

  it('runs the gateway from the production image the Dockerfile builds, never from a mounted checkout, with read-only root file systems', () => {
    assert.deepEqual(ROLES, ['api', 'worker', 'migrate', 'bank-sim', 'cli']);
    for (const name of [...GATEWAY, 'migrate', ...SIMULATORS]) {
      const service = services[name]!;
      assert.equal(service.image, `dargah:${pkg.version}`, `${name} runs the image tagged with package.json's version`);
      assert.equal(service.build, '.', `${name}: docker compose build makes it from the Dockerfile`);
      assert.equal(service.read_only, true, `${name} has a read-only root file system`);
      assert.deepEqual(service.tmpfs, ['/tmp'], `${name} writes its temporary files to a tmpfs`);
      const writable = (service.volumes ?? []).map((v) => v.split(':'));
      assert.ok(
        writable.length === 1 && /^[a-z-]+$/.test(writable[0]![0]!) && writable[0]![1] === '/var/lib/dargah',
        `${name}: one named volume, on the image's writable /var/lib/dargah`,
      );
    }
    for (const [name, service] of Object.entries(services)) {
      for (const volume of service.volumes ?? [])
        assert.ok(!/^\.\/?(:|$)/.test(volume.split(':')[0]! + ':'), `${name} mounts the checkout (${volume})`);
    }
  });

  for (const name of [...GATEWAY, 'migrate']) {
    it(`${name}: runs a role of the image, with only settings the code reads, pointing at the right services as the gateway's own MySQL user`, () => {
      const service = services[name]!;
      const role = name.replace(/-[ab]$/, '');
      assert.deepEqual(service.command, [role], `${name} runs the image's ${role} role`);
      const env = environmentOf(name);
      for (const variable of Object.keys(env))
        assert.ok(
          KNOWN_SETTINGS.has(variable) || IMAGE_VARIABLES.has(variable),
          `${name} sets ${variable}, which the code does not read`,
        );
      const config = loadConfig(env);
      const db = new URL(config.DATABASE_URL);
      assert.equal(db.hostname, 'mysql');
      assert.equal(db.pathname, `/${services.mysql!.environment!.MYSQL_DATABASE}`);
      assert.equal(db.username, 'dargah', `${name} connects as the gateway's own user, not root`);
      assert.equal(
        decodeURIComponent(db.password),
        environmentOf('mysql').DARGAH_DB_PASSWORD,
        'the password the init script gave that user',
      );
      assert.equal(config.TEMPORAL_ADDRESS, 'haproxy:7233', 'through the balancer');
      if (name !== 'migrate') {
        assert.equal(config.SMTP_URL, SECRETS.SMTP_URL, "dashboard email goes through the operator's relay");
        assert.doesNotThrow(
          () => requireMailInProduction({ ...config, NODE_ENV: 'production' }),
          'it starts in production mode',
        );
        assert.doesNotThrow(
          () => requireSecretsInProduction({ ...config, NODE_ENV: 'production' }, role as 'api' | 'worker'),
          'with every secret it uses',
        );
      }
      const schemaOwner = new URL(migrationDatabaseUrl(config));
      if (name === 'migrate') {
        assert.equal(schemaOwner.username, 'dargah_migrate', 'migrations run as the schema owner');
        assert.equal(decodeURIComponent(schemaOwner.password), environmentOf('mysql').DARGAH_MIGRATE_DB_PASSWORD);
        assert.equal(`${schemaOwner.host}${schemaOwner.pathname}`, `${db.host}${db.pathname}`, 'on the same database');
      } else {
        assert.equal(config.MIGRATE_DATABASE_URL, '', `${name} is not given the schema owner's password`);
      }
    });
  }

  it("bounds each gateway process's memory by configuration: the heap limit npm start gives it (tools/launcher/memory.ts), under a container limit that holds it", () => {
    const mebibytes = (limit: string) => Number(/^(\d+)([mg])$/.exec(limit)![1]) * (limit.endsWith('g') ? 1024 : 1);
    for (const name of GATEWAY) {
      const role = name.replace(/-[ab]$/, '') as HeapRole;
      assert.equal(environmentOf(name).NODE_OPTIONS, heapLimitOption(role), name);
      assert.ok(
        mebibytes(services[name]!.mem_limit ?? '0m') >= memoryCeilingMb(role),
        `${name}: mem_limit ${services[name]!.mem_limit} holds its ${memoryCeilingMb(role)} MiB`,
      );
    }
  });

  it('health-checks each role where it answers: the API on /healthz (the image default), the worker on its metrics port, the bank simulator on its /healthz', () => {
    for (const name of ['api-a', 'api-b']) assert.equal(environmentOf(name).HEALTHCHECK_URL, undefined);
    for (const name of ['worker-a', 'worker-b'])
      assert.equal(
        environmentOf(name).HEALTHCHECK_URL,
        `http://127.0.0.1:${loadConfig(environmentOf(name)).WORKER_METRICS_PORT}/metrics`,
      );
    for (const name of SIMULATORS) {
      const sim = environmentOf(name);
      assert.equal(sim.HEALTHCHECK_URL, `http://127.0.0.1:${sim.BANK_SIM_PORT}/healthz`, name);
    }
  });

  it('names every secret in .env.example, empty, and keeps .env out of the repository', () => {
    const example = Object.fromEntries(
      readFileSync('.env.example', 'utf8')
        .split('\n')
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => l.split('=') as [string, string]),
    );
    assert.deepEqual(Object.keys(example).sort(), Object.keys(SECRETS).sort());
    for (const [name, value] of Object.entries(example)) assert.equal(value, '', `${name} has no value in the example`);
    assert.ok(readFileSync('.gitignore', 'utf8').split('\n').includes('.env'), '.gitignore covers .env');
  });

  it('keeps Temporal in its own PostgreSQL, not published, as its own user', () => {
    const env = environmentOf('postgres');
    assert.equal(env.POSTGRES_USER, 'temporal');
    assert.equal(env.POSTGRES_PASSWORD, SECRETS.TEMPORAL_DB_PASSWORD);
    assert.equal(services.postgres!.ports, undefined);
  });

  it("mounts an init script into MySQL that creates the gateway's two users, granted only their own database: the gateway rows only, the migrations the schema", () => {
    const mount = (services.mysql!.volumes ?? []).find((v) => v.includes(':/docker-entrypoint-initdb.d'));
    assert.ok(mount !== undefined, 'an init directory is mounted into /docker-entrypoint-initdb.d');
    assert.equal(mount.split(':')[0], `./${INIT_DIR}`);
    assert.match(mount, /:ro$/, 'read-only');
    assert.ok(initScripts().length > 0, `${INIT_DIR}/01-users.sh exists`);
    for (const file of initScripts())
      assert.ok(
        (statSync(file).mode & 0o111) !== 0,
        `${file} is executable (the entrypoint runs it with the container's environment)`,
      );
    const sql = initScripts()
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    assert.match(sql, /APP_USER="\$\{DARGAH_DB_USER:-dargah\}"/);
    assert.match(sql, /MIGRATE_USER="\$\{DARGAH_MIGRATE_DB_USER:-dargah_migrate\}"/);
    assert.match(sql, /DB="\$\{DARGAH_DB_NAME:-dargah\}"/);
    assert.match(sql, /CREATE USER IF NOT EXISTS '\$\{APP_USER\}'@'%' IDENTIFIED BY '\$\{DARGAH_DB_PASSWORD\}'/);
    assert.match(
      sql,
      /CREATE USER IF NOT EXISTS '\$\{MIGRATE_USER\}'@'%' IDENTIFIED BY '\$\{DARGAH_MIGRATE_DB_PASSWORD\}'/,
    );
    const all = grants();
    assert.deepEqual([...new Set(all.map((g) => g.user))].sort(), ['${APP_USER}', '${MIGRATE_USER}']);
    const allowed: Record<string, string[]> = { '${APP_USER}': ['${DB}.*'], '${MIGRATE_USER}': ['${DB}.*'] };
    for (const g of all) {
      assert.ok(
        allowed[g.user]!.includes(g.on.replace(/`/g, '')),
        `${g.user} is granted only its own databases, not ${g.on}`,
      );
      assert.ok(!g.withGrantOption, `${g.user} cannot grant privileges on`);
    }
    const privileges = (user: string) =>
      all
        .filter((g) => g.user === user)
        .map((g) => g.privileges)
        .join(',');
    const gateway = privileges('${APP_USER}');
    for (const privilege of ['SELECT', 'INSERT', 'UPDATE', 'DELETE'])
      assert.match(gateway, new RegExp(`\\b${privilege}\\b`), `the gateway may ${privilege}`);
    assert.doesNotMatch(
      gateway,
      /\bALL\b|\bCREATE\b|\bALTER\b|\bDROP\b|\bINDEX\b|\bTRIGGER\b|\bREFERENCES\b|\bSUPER\b|\bFILE\b|\bPROCESS\b/,
      'the gateway touches rows only: no DDL, no TRIGGER (test/deployment/database-users.test.ts runs the script)',
    );
    const migrations = privileges('${MIGRATE_USER}');
    for (const privilege of ['CREATE', 'ALTER', 'INDEX', 'TRIGGER'])
      assert.match(migrations, new RegExp(`\\b${privilege}\\b`), `the migrations may ${privilege}`);
    assert.doesNotMatch(migrations, /\bALL\b|\bSUPER\b|\bFILE\b|\bPROCESS\b/, 'the migrations get no global privilege');
    assert.equal(
      services.mysql!.environment!.MYSQL_USER,
      undefined,
      'no MYSQL_USER (it would be granted ALL on the database)',
    );
  });

  it('requires every secret from the environment (${VAR:?…}) and writes none into the file', () => {
    const secretSettings: [string, string][] = [
      ['mysql', 'MYSQL_ROOT_PASSWORD'],
      ['mysql', 'DARGAH_DB_PASSWORD'],
      ['mysql', 'DARGAH_MIGRATE_DB_PASSWORD'],
      ['postgres', 'POSTGRES_PASSWORD'],
      ...TEMPORAL_SERVICES.map((name): [string, string] => [name, 'POSTGRES_PASSWORD']),
      ['temporal-schema', 'POSTGRES_PASSWORD'],
      ['api-a', 'PAGES_CSRF_SECRET'],
      ['api-b', 'PAGES_CSRF_SECRET'],
      ['api-a', 'DASHBOARD_SECRETS_KEY'],
      ['api-b', 'DASHBOARD_SECRETS_KEY'],
      ...GATEWAY.map((name): [string, string] => [name, 'CARD_HASH_KEY']),
      ['grafana', 'GF_SECURITY_ADMIN_PASSWORD'],
      ...GATEWAY.map((name): [string, string] => [name, 'SMTP_URL']),
    ];
    for (const [service, setting] of secretSettings) {
      const raw = services[service]!.environment![setting]!;
      assert.match(raw, /^\$\{[A-Z_]+:\?[^}]+\}$/, `${service}.${setting} is \${VAR:?message}, not a value`);
    }
    const database = services['api-a']!.environment!.DATABASE_URL!;
    assert.match(database, /^mysql:\/\/dargah:\$\{DARGAH_DB_PASSWORD:\?[^}]+\}@/);
    for (const variable of Object.keys(SECRETS)) {
      const without = { ...SECRETS, [variable]: undefined };
      const refused = Object.keys(services).some((name) => {
        try {
          environmentOf(name, without);
          return false;
        } catch (error) {
          return String(error).includes(variable);
        }
      });
      assert.ok(refused, `docker compose refuses to start without ${variable}`);
    }
    // Nothing that looks like a password or secret value remains in the file itself.
    const text = readFileSync('docker-compose.yml', 'utf8');
    assert.doesNotMatch(text, /\s-p[a-z0-9]+\b|:dargah@|PWD: [a-z]|PASSWORD: [a-z]|SECRET: [a-z]|_PIN: [a-z0-9]/i);
  });

  it('publishes every port on 127.0.0.1 only: the API and Temporal through HAProxy on 3000 and 7233 (the API behind a TLS proxy; Temporal does not authenticate), the UI on 8233', () => {
    const published = Object.entries(services).flatMap(([name, s]) =>
      (s.ports ?? []).map((p) => [name, String(p)] as const),
    );
    assert.ok(published.length > 0);
    for (const [name, port] of published)
      assert.match(port, /^127\.0\.0\.1:\d+:\d+$/, `${name} publishes ${port} on loopback only`);
    assert.deepEqual(services.haproxy!.ports, ['127.0.0.1:3000:3000', '127.0.0.1:7233:7233']);
    for (const name of ['api-a', 'api-b'])
      assert.equal(
        loadConfig(environmentOf(name)).HOST,
        '0.0.0.0',
        'the API listens on all interfaces inside its container',
      );
    assert.ok(services['temporal-ui']!.ports!.includes('127.0.0.1:8233:8080'));
    assert.deepEqual(
      published.map(([name]) => name).sort(),
      [...SIMULATORS, 'grafana', 'haproxy', 'haproxy', 'prometheus', 'temporal-ui'].sort(),
      "nothing else is published (the bank simulators' pages are for customers' browsers): not MySQL, PostgreSQL, a replica or a Temporal service; Prometheus and Grafana for the operator",
    );
    assert.ok(services.prometheus!.ports!.includes('127.0.0.1:9090:9090'));
    assert.ok(services.grafana!.ports!.includes('127.0.0.1:3001:3000'));
  });

  for (const psp of PSP_NAMES) {
    const service = `bank-sim-${psp}`;
    const profile = PSP_PROFILES[psp];
    it(`runs ${psp}'s simulator as its own service with its own port and state, and points test payments at ${psp} to it (live ${psp} from the environment, secrets never in the file)`, () => {
      const sim = services[service]!;
      assert.deepEqual(sim.command, ['bank-sim']);
      const simEnv = environmentOf(service);
      assert.equal(simEnv.BANK_SIM_PROTOCOL, psp);
      assert.equal(simEnv.BANK_SIM_HOST, '0.0.0.0');
      assert.equal(simEnv.BANK_SIM_PORT, String(profile.simulator.port), "its profile's port");
      assert.equal(simEnv.BANK_SIM_ADMIN_TOKEN, undefined, 'no admin endpoints on the port customers reach');
      assert.equal(
        simEnv.BANK_SIM_REDIRECT_ORIGINS,
        'http://localhost:3000',
        "customers go back to the gateway's origin only",
      );
      const state = (sim.volumes ?? []).find((v) => v.endsWith(':/var/lib/dargah'));
      assert.ok(
        state !== undefined && simEnv.BANK_SIM_STATE_FILE!.startsWith('/var/lib/dargah/'),
        'its ledger survives a restart on a volume',
      );
      for (const other of SIMULATORS.filter((o) => o !== service)) {
        assert.notEqual(simEnv.BANK_SIM_PORT, environmentOf(other).BANK_SIM_PORT, `not ${other}'s port`);
        assert.notEqual(services[other]!.volumes![0], state, `not ${other}'s volume`);
      }
      assert.ok(
        sim.ports!.includes(`127.0.0.1:${simEnv.BANK_SIM_PORT}:${simEnv.BANK_SIM_PORT}`),
        "customers' browsers reach its page",
      );
      const test = pspSettings().filter((s) => s.psp === psp && s.mode === 'test');
      const live = pspSettings().filter((s) => s.psp === psp && s.mode === 'live');
      for (const name of GATEWAY) {
        const worker = WORKERS.includes(name);
        const env = environmentOf(name);
        assert.equal(env[pspSettingName(psp, 'test', 'URL')], `http://${service}:${simEnv.BANK_SIM_PORT}`);
        assert.equal(env[pspSettingName(psp, 'test', 'PAGE_URL')], `http://localhost:${simEnv.BANK_SIM_PORT}`);
        for (const setting of test.filter((s) => !['URL', 'PAGE_URL'].includes(s.suffix))) {
          // Only the worker calls a PSP: the API has no secret of it.
          const expected = setting.secret && !worker ? undefined : simEnv[`BANK_SIM_${setting.suffix}`];
          assert.equal(
            env[setting.name],
            expected,
            `${name}.${setting.name}: what the simulator holds as BANK_SIM_${setting.suffix}`,
          );
          if (setting.secret)
            assert.match(
              sim.environment![`BANK_SIM_${setting.suffix}`]!,
              new RegExp(`^\\$\\{${setting.name}:\\?[^}]+\\}$`),
              'required from the environment',
            );
        }
        for (const setting of live)
          assert.equal(env[setting.name] ?? '', '', `${name}: no live ${psp} unless the operator sets ${setting.name}`);
        const given = Object.fromEntries(live.map((s) => [s.name, `from-operator-${s.suffix.toLowerCase()}`]));
        const liveEnv = environmentOf(name, { ...SECRETS, ...given });
        for (const setting of live)
          assert.equal(
            liveEnv[setting.name],
            setting.secret && !worker ? undefined : given[setting.name],
            `${name}.${setting.name} from the environment`,
          );
      }
    });
  }

  it("gives each process only its own secrets: the PSP credentials to the workers alone, the pages' and dashboard's secrets to the API alone, none of them to the migrations", () => {
    for (const name of APIS) {
      const env = environmentOf(name);
      for (const secret of PSP_SECRETS)
        assert.ok(!(secret in env), `${name} is not given ${secret}: only the worker calls a PSP`);
      for (const secret of [...API_SECRETS, 'CARD_HASH_KEY', 'SMTP_URL'])
        assert.ok(env[secret] !== undefined && env[secret] !== '', `${name} is given ${secret}`);
    }
    const liveSecrets = Object.fromEntries(
      pspSettings()
        .filter((s) => s.secret && s.mode === 'live')
        .map((s) => [s.name, `from-psp-${s.name.toLowerCase()}`]),
    );
    const live = { ...SECRETS, ...liveSecrets };
    for (const name of WORKERS) {
      const env = environmentOf(name, live);
      for (const secret of API_SECRETS) assert.ok(!(secret in env), `${name} is not given ${secret}`);
      for (const secret of PSP_SECRETS) assert.ok(secret in env, `${name} is given ${secret}`);
      for (const [secret, value] of Object.entries(liveSecrets)) assert.equal(env[secret], value, `${name}.${secret}`);
    }
    const migrate = environmentOf('migrate', live);
    for (const secret of [...PSP_SECRETS, ...API_SECRETS, 'CARD_HASH_KEY', 'SMTP_URL'])
      assert.ok(!(secret in migrate), `migrate is not given ${secret}`);
    // The same card-hash key on both sides: a restricted payment is checked by the key it was made with.
    assert.equal(environmentOf('api-a').CARD_HASH_KEY, environmentOf('worker-a').CARD_HASH_KEY);
  });

  it('starts the API replicas and workers only after the migrations ran and the namespace exists', () => {
    for (const name of GATEWAY) {
      const deps = services[name]!.depends_on as Record<string, { condition: string }>;
      assert.equal(deps.migrate?.condition, 'service_completed_successfully');
      assert.equal(deps['temporal-namespace']?.condition, 'service_completed_successfully');
    }
  });

  it('wires Prometheus to every api and worker replica on their metrics ports (never published) and to the alert rules, and Grafana to Prometheus and the dashboard', () => {
    for (const name of GATEWAY) {
      const config = loadConfig(environmentOf(name));
      assert.equal(config.METRICS_HOST, '0.0.0.0', `${name} serves /metrics on the compose network`);
      assert.ok(
        !(services[name]!.ports ?? []).some(
          (p) => p.endsWith(`:${config.API_METRICS_PORT}`) || p.endsWith(`:${config.WORKER_METRICS_PORT}`),
        ),
        `${name}'s metrics are not published`,
      );
    }
    const mounts = (name: string) =>
      Object.fromEntries(
        (services[name]!.volumes ?? [])
          .filter((v) => v.startsWith('./'))
          .map((v) => [v.split(':')[1]!, v.split(':')[0]!.replace(/^\.\//, '')]),
      );
    const prometheusMounts = mounts('prometheus');
    for (const file of Object.values(prometheusMounts)) assert.ok(existsSync(file), `${file} exists`);
    const prometheus = parse(readFileSync(prometheusMounts['/etc/prometheus/prometheus.yml']!, 'utf8')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; dns_sd_configs: { names: string[]; port: number }[] }[];
    };
    for (const rules of prometheus.rule_files)
      assert.ok(prometheusMounts[rules] !== undefined, `the rule file ${rules} is mounted`);
    const defaults = loadConfig({});
    const targets = Object.fromEntries(
      prometheus.scrape_configs.flatMap((job) => job.dns_sd_configs.flatMap((sd) => sd.names.map((n) => [n, sd.port]))),
    );
    assert.deepEqual(targets, {
      'api-a': defaults.API_METRICS_PORT,
      'api-b': defaults.API_METRICS_PORT,
      'worker-a': defaults.WORKER_METRICS_PORT,
      'worker-b': defaults.WORKER_METRICS_PORT,
    });
    const grafanaMounts = mounts('grafana');
    const provisioning = Object.entries(grafanaMounts).find(([target]) => target === '/etc/grafana/provisioning')?.[1];
    assert.ok(provisioning !== undefined && existsSync(provisioning), 'provisioning is mounted');
    const datasource = parse(readFileSync(join(provisioning, 'datasources', 'prometheus.yml'), 'utf8')) as {
      datasources: { url: string; uid: string }[];
    };
    assert.equal(datasource.datasources[0]!.url, 'http://prometheus:9090');
    const provider = parse(readFileSync(join(provisioning, 'dashboards', 'dargah.yml'), 'utf8')) as {
      providers: { options: { path: string } }[];
    };
    const dashboards = grafanaMounts[provider.providers[0]!.options.path];
    assert.ok(
      dashboards !== undefined && existsSync(join(dashboards, 'dargah.json')),
      'the dashboard folder the provider reads is mounted',
    );
    const dashboard = JSON.parse(readFileSync(join(dashboards, 'dargah.json'), 'utf8')) as {
      panels: { datasource: { uid: string } }[];
    };
    for (const panel of dashboard.panels) assert.equal(panel.datasource.uid, datasource.datasources[0]!.uid);
  });
});

/**
 * Each secret as the deployment files tell the operator to make it (`${NAME:?set NAME (…; openssl rand …)}`
 * in docker-compose.yml; the nearest `openssl rand` comment above the variable in .env.example and in the
 * Helm values), made by running that very command: a value the gateway takes, every PSP connector's key
 * check included (issue 50: Sadad's key is base64 of 24 bytes, which `openssl rand -hex 32` is not).
 */
describe("the deployment files' instructions for making secrets", () => {
  const COMMAND = /openssl rand -(?:hex|base64) \d+/;
  /** Runs an instruction's command as the operator would; answers its output without the newline. */
  const run = (command: string) => {
    const [bin, ...args] = command.split(' ');
    return execFileSync(bin!, args, { encoding: 'utf8' }).trim();
  };
  /** docker-compose.yml's instructions: each required variable's command, the same wherever the variable is required. */
  const composeInstructions = () => {
    const text = readFileSync('docker-compose.yml', 'utf8');
    const commands = new Map<string, Set<string>>();
    for (const m of text.matchAll(/\$\{([A-Z_][A-Z0-9_]*):\?([^}]*)\}/g)) {
      const command = COMMAND.exec(m[2]!)?.[0];
      if (command === undefined) continue;
      commands.set(m[1]!, new Set([...(commands.get(m[1]!) ?? []), command]));
    }
    return commands;
  };
  /** A file's instruction for each variable it lists: the nearest comment above it that names an `openssl rand` command. */
  const commentInstructions = (file: string, variable: RegExp) => {
    const lines = readFileSync(file, 'utf8').split('\n');
    const commands = new Map<string, string>();
    lines.forEach((line, i) => {
      const name = variable.exec(line)?.[1];
      if (name === undefined) return;
      for (let j = i - 1; j >= 0; j -= 1) {
        const command = /^\s*#/.test(lines[j]!) ? COMMAND.exec(lines[j]!)?.[0] : undefined;
        if (command !== undefined) {
          commands.set(name, command);
          return;
        }
      }
    });
    return commands;
  };
  /** The worker's configuration with these secrets, and its PSP clients made from it (each connector checks its settings). */
  const workerWith = (secrets: Record<string, string>) => {
    const config = loadConfig(environmentOf('worker-a', { ...SECRETS, ...secrets }));
    requireSecretsInProduction({ ...config, NODE_ENV: 'production' }, 'worker');
    return pspClientsFromConfig(config);
  };
  const TEST_PSP_SECRETS = pspSettings().filter((s) => s.secret && s.mode === 'test');

  it('docker-compose.yml: every secret required has one command, and what it makes the gateway and every PSP connector accept', () => {
    const commands = composeInstructions();
    for (const s of TEST_PSP_SECRETS) assert.ok(commands.has(s.name), `docker-compose.yml says how to make ${s.name}`);
    const made: Record<string, string> = {};
    for (const [name, set] of commands) {
      assert.equal(
        set.size,
        1,
        `${name} is made one way wherever docker-compose.yml asks for it: ${[...set].join(', ')}`,
      );
      made[name] = run([...set][0]!);
    }
    assert.doesNotThrow(
      () => sadadKey(made.SANDBOX_SADAD_KEY!),
      `SANDBOX_SADAD_KEY as docker-compose.yml says to make it (${[...commands.get('SANDBOX_SADAD_KEY')!][0]}) is a key Sadad's connector takes`,
    );
    const clients = workerWith(made);
    for (const psp of PSP_NAMES) assert.ok(clients.test[psp] !== undefined, `the worker talks to ${psp}'s simulator`);
    // The simulator is given the same value, and signs with it (a key of another shape makes every signature wrong).
    assert.equal(environmentOf('bank-sim-sadad', { ...SECRETS, ...made }).BANK_SIM_KEY, made.SANDBOX_SADAD_KEY);
  });

  it('.env.example and the Helm values: the command each PSP secret is made with gives a value its connector accepts', () => {
    const files: [string, Map<string, string>][] = [
      ['.env.example', commentInstructions('.env.example', /^([A-Z_][A-Z0-9_]*)=/)],
      [
        'deploy/helm/dargah/values.yaml',
        commentInstructions('deploy/helm/dargah/values.yaml', /^\s+([A-Z_][A-Z0-9_]*): ""/),
      ],
    ];
    for (const [file, commands] of files) {
      const made = Object.fromEntries(
        TEST_PSP_SECRETS.filter((s) => commands.has(s.name)).map((s) => [s.name, run(commands.get(s.name)!)]),
      );
      if (file === '.env.example')
        for (const s of TEST_PSP_SECRETS) assert.ok(made[s.name] !== undefined, `${file} says how to make ${s.name}`);
      if (made.SANDBOX_SADAD_KEY !== undefined)
        assert.doesNotThrow(
          () => sadadKey(made.SANDBOX_SADAD_KEY!),
          `${file}: SANDBOX_SADAD_KEY (${commands.get('SANDBOX_SADAD_KEY')})`,
        );
      assert.doesNotThrow(() => workerWith(made), `${file}: the worker takes the secrets made as it says`);
    }
  });
});
