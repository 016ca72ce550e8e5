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
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ConfigSchema, loadConfig } from '../../src/config.ts';
import { TEMPORAL_SERVER_VERSION, TEMPORAL_UI_VERSION } from '../../tools/launcher/temporal-cluster.ts';

interface Service {
  image?: string;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
}

const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as { services: Record<string, Service> };
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
const services = compose.services;
const GATEWAY = ['api-a', 'api-b', 'worker-a', 'worker-b'];
const TEMPORAL_SERVICES = ['temporal-frontend-a', 'temporal-frontend-b', 'temporal-history', 'temporal-matching', 'temporal-worker'];

/** What `docker compose` does with `${VAR}`, `${VAR:?message}`, `${VAR:-default}` and `$$` in a value. */
function interpolate(value: string, env: Record<string, string | undefined>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[?-])([^}]*))?\}/g, (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
    if (whole === '$$') return '$';
    const set = env[name!];
    const missing = op?.startsWith(':') ? set === undefined || set === '' : set === undefined;
    if (op?.endsWith('?') && missing) throw new Error(`required variable ${name} is missing a value: ${arg}`);
    if (op?.endsWith('-') && missing) return arg ?? '';
    return set ?? '';
  });
}

/** The secrets an operator supplies: random, URL-safe, as the comments ask for (openssl rand -hex 32). */
const SECRETS = {
  MYSQL_ROOT_PASSWORD: '3f1c9e2a7b5d4e8f0a6c1b2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f',
  DARGAH_DB_PASSWORD: '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b',
  TEMPORAL_DB_PASSWORD: '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
  PAGES_CSRF_SECRET: 'c2b7e1d94f3a8065b1e7d2c9a4f8306e5b2d7c1e9a4f8306b5e2d7c1a9f4e830',
  DASHBOARD_SECRETS_KEY: '5e2d7c1a9f4e830c2b7e1d94f3a8065b1e7d2c9a4f8306e5b2d7c1e9a4f8306b',
  GRAFANA_ADMIN_PASSWORD: '7d3e9a1c5b8f2e4d6a0c9b3e7f1d5a8c2e6b0d4f9a3c7e1b5d8f2a6c0e4b9d3f',
};

/** A service's environment as docker compose hands it to the container, with these variables set. */
function environmentOf(name: string, env: Record<string, string | undefined> = SECRETS): Record<string, string> {
  return Object.fromEntries(Object.entries(services[name]!.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), env)]));
}

const INIT_DIR = 'deploy/mysql-init';
const initScripts = () => (existsSync(INIT_DIR) ? ['01-users.sh'].map((f) => join(INIT_DIR, f)).filter((f) => existsSync(f)) : []);

/** The GRANT statements of the init script: user → the databases it is granted, and how. */
function grants(): { user: string; on: string; privileges: string; withGrantOption: boolean }[] {
  const sql = initScripts().map((f) => readFileSync(f, 'utf8')).join('\n').replace(/\\`/g, '`');
  return [...sql.matchAll(/GRANT\s+([\s\S]+?)\s+ON\s+(\S+)\s+TO\s+'([^']+)'@'[^']*'([^;]*);/gi)].map((m) => ({
    privileges: m[1]!.toUpperCase(),
    on: m[2]!,
    user: m[3]!,
    withGrantOption: /GRANT\s+OPTION/i.test(m[4]!),
  }));
}

describe('docker-compose.yml', () => {
  it('describes the production topology: MySQL 8, a Temporal cluster on PostgreSQL 15, its UI, HAProxy, two API replicas and two workers, the bank simulator, Prometheus and Grafana, at the versions the cluster suite runs', () => {
    assert.deepEqual(Object.keys(services).sort(), [...GATEWAY, ...TEMPORAL_SERVICES, 'bank-sim', 'grafana', 'haproxy', 'migrate', 'mysql', 'postgres', 'prometheus', 'temporal-namespace', 'temporal-schema', 'temporal-ui'].sort());
    assert.match(services.mysql!.image!, /^mysql:8\./);
    assert.match(services.postgres!.image!, /^postgres:15\./, 'the major version the suite runs (Debian\'s postgresql-15)');
    for (const name of TEMPORAL_SERVICES) assert.equal(services[name]!.image, `temporalio/server:${TEMPORAL_SERVER_VERSION.slice(1)}`, `${name}: the server version the suite builds`);
    for (const name of ['temporal-schema', 'temporal-namespace']) assert.equal(services[name]!.image, `temporalio/auto-setup:${TEMPORAL_SERVER_VERSION.slice(1)}`);
    assert.equal(services['temporal-ui']!.image, `temporalio/ui:${TEMPORAL_UI_VERSION.slice(1)}`, 'the UI server version the suite builds');
    assert.equal(services['temporal-ui']!.environment!.TEMPORAL_ADDRESS, 'haproxy:7233');
    assert.match(services.haproxy!.image!, /^haproxy:2\.6\./, 'the HAProxy series Debian 12 ships (the suite runs it)');
  });

  it('runs every Temporal service on the configuration file the cluster suite runs, with the settings it reads', () => {
    const template = readFileSync('deploy/temporal/cluster.yaml', 'utf8');
    const read = new Set([...template.matchAll(/env "([A-Z_]+)"/g)].map((m) => m[1]!));
    const required = [...template.matchAll(/env "([A-Z_]+)" \| quote/g)].map((m) => m[1]!);
    for (const name of TEMPORAL_SERVICES) {
      const service = services[name]!;
      assert.ok(service.volumes?.includes('./deploy/temporal:/etc/dargah/temporal:ro'), `${name} mounts deploy/temporal`);
      const command = service.entrypoint!.join(' ');
      assert.match(command, /temporal-server --root \/etc\/dargah --config temporal --env cluster /, `${name} runs deploy/temporal/cluster.yaml`);
      assert.equal(/--service (\w+)/.exec(command)?.[1], name.replace(/^temporal-/, '').replace(/-[ab]$/, ''), `${name} runs its own service`);
      const env = environmentOf(name);
      for (const variable of Object.keys(env)) assert.ok(read.has(variable), `${name} sets ${variable}, which cluster.yaml does not read`);
      for (const variable of required) assert.ok(env[variable] !== undefined, `${name} sets ${variable}`);
      assert.equal(env.POSTGRES_PASSWORD, environmentOf('postgres').POSTGRES_PASSWORD, 'the password PostgreSQL was given');
      assert.equal(env.POSTGRES_USER, environmentOf('postgres').POSTGRES_USER);
      assert.equal(env.PUBLIC_FRONTEND_ADDRESS, 'haproxy:7233', 'its worker reaches the frontends through the balancer');
      assert.ok(existsSync(join('deploy/temporal', env.DYNAMIC_CONFIG_FILE!.replace('/etc/dargah/temporal/', ''))), 'the dynamic configuration is in the mounted directory');
    }
    const schema = services['temporal-schema']!;
    assert.ok(schema.volumes?.includes('./deploy/temporal:/etc/dargah/temporal:ro'));
    assert.deepEqual(schema.entrypoint, ['sh', '/etc/dargah/temporal/setup-schema.sh'], 'the schema script the suite runs');
    const script = readFileSync('deploy/temporal/setup-schema.sh', 'utf8');
    for (const variable of new Set([...script.matchAll(/\$\{?([A-Z_]+)/g)].map((m) => m[1]!))) {
      assert.ok(environmentOf('temporal-schema')[variable] !== undefined, `temporal-schema sets ${variable}, which setup-schema.sh reads`);
    }
  });

  it('puts HAProxy with the configuration the cluster suite runs in front of both API replicas and both frontends', () => {
    const haproxy = services.haproxy!;
    assert.ok(haproxy.volumes?.includes('./deploy/haproxy:/usr/local/etc/haproxy:ro'), 'deploy/haproxy mounted where the image reads haproxy.cfg');
    const env = environmentOf('haproxy');
    const cfg = readFileSync('deploy/haproxy/haproxy.cfg', 'utf8').split('\n').filter((line) => !line.trimStart().startsWith('#')).join('\n');
    for (const variable of new Set([...cfg.matchAll(/"\$\{([A-Z_]+)\}/g)].map((m) => m[1]!))) assert.ok(env[variable] !== undefined, `haproxy sets ${variable}`);
    assert.equal(env.HAPROXY_ERRORS, '/usr/local/etc/haproxy');
    assert.deepEqual([env.API_A, env.API_B], ['api-a:3000', 'api-b:3000']);
    for (const name of ['api-a', 'api-b']) assert.equal(loadConfig(environmentOf(name)).PORT, 3000, `${name} listens where the balancer sends`);
    assert.deepEqual([env.FRONTEND_A, env.FRONTEND_B], ['temporal-frontend-a:7233', 'temporal-frontend-b:7233'], 'the frontends at cluster.yaml\'s default gRPC port');
    assert.deepEqual(environmentOf('api-a'), environmentOf('api-b'), 'the replicas share every setting (CSRF secret, rate-limit store)');
    assert.equal(environmentOf('api-a').RATE_LIMIT_STORE, 'mysql');
  });

  it('pins every image to a version', () => {
    for (const [name, service] of Object.entries(services)) {
      assert.ok(service.image !== undefined, `${name} has an image`);
      assert.doesNotMatch(service.image, /:latest$|^[^:]+$/, `${name} pins its image`);
    }
  });

  for (const name of [...GATEWAY, 'migrate']) {
    it(`${name}: runs an npm script that exists, with only settings the code reads, pointing at the right services as the gateway's own MySQL user`, () => {
      const service = services[name]!;
      const script = service.command!.join(' ').match(/npm run (\w+)/)?.[1];
      assert.ok(script !== undefined && pkg.scripts[script] !== undefined, `npm script of ${name}`);
      const env = environmentOf(name);
      const known = new Set(Object.keys(ConfigSchema.properties));
      for (const variable of Object.keys(env)) assert.ok(known.has(variable), `${name} sets ${variable}, which the code does not read`);
      const config = loadConfig(env);
      const db = new URL(config.DATABASE_URL);
      assert.equal(db.hostname, 'mysql');
      assert.equal(db.pathname, `/${services.mysql!.environment!.MYSQL_DATABASE}`);
      assert.equal(db.username, 'dargah', `${name} connects as the gateway's own user, not root`);
      assert.equal(decodeURIComponent(db.password), environmentOf('mysql').DARGAH_DB_PASSWORD, 'the password the init script gave that user');
      assert.equal(config.TEMPORAL_ADDRESS, 'haproxy:7233', 'through the balancer');
    });
  }

  it('keeps Temporal in its own PostgreSQL, not published, as its own user', () => {
    const env = environmentOf('postgres');
    assert.equal(env.POSTGRES_USER, 'temporal');
    assert.equal(env.POSTGRES_PASSWORD, SECRETS.TEMPORAL_DB_PASSWORD);
    assert.equal(services.postgres!.ports, undefined);
  });

  it('mounts an init script into MySQL that creates the gateway\'s user, granted only its own database', () => {
    const mount = (services.mysql!.volumes ?? []).find((v) => v.includes(':/docker-entrypoint-initdb.d'));
    assert.ok(mount !== undefined, 'an init directory is mounted into /docker-entrypoint-initdb.d');
    assert.equal(mount.split(':')[0], `./${INIT_DIR}`);
    assert.match(mount, /:ro$/, 'read-only');
    assert.ok(initScripts().length > 0, `${INIT_DIR}/01-users.sh exists`);
    for (const file of initScripts()) assert.ok((statSync(file).mode & 0o111) !== 0, `${file} is executable (the entrypoint runs it with the container's environment)`);
    const sql = initScripts().map((f) => readFileSync(f, 'utf8')).join('\n');
    assert.match(sql, /CREATE USER IF NOT EXISTS 'dargah'@'%' IDENTIFIED BY '\$\{DARGAH_DB_PASSWORD\}'/);
    const all = grants();
    assert.deepEqual([...new Set(all.map((g) => g.user))].sort(), ['dargah']);
    const allowed: Record<string, string[]> = { dargah: ['dargah.*'] };
    for (const g of all) {
      assert.ok(allowed[g.user]!.includes(g.on.replace(/`/g, '')), `${g.user} is granted only its own databases, not ${g.on}`);
      assert.ok(!g.withGrantOption, `${g.user} cannot grant privileges on`);
    }
    const gateway = all.filter((g) => g.user === 'dargah').map((g) => g.privileges).join(',');
    for (const privilege of ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'CREATE', 'ALTER', 'INDEX']) assert.match(gateway, new RegExp(`\\b${privilege}\\b`), `the gateway may ${privilege}`);
    assert.doesNotMatch(gateway, /\bALL\b|\bDROP\b|\bSUPER\b|\bFILE\b|\bPROCESS\b/, 'the gateway gets no more than its migrations and queries need');
    assert.equal(services.mysql!.environment!.MYSQL_USER, undefined, 'no MYSQL_USER (it would be granted ALL on the database)');
  });

  it('requires every secret from the environment (${VAR:?…}) and writes none into the file', () => {
    const secretSettings: [string, string][] = [
      ['mysql', 'MYSQL_ROOT_PASSWORD'],
      ['mysql', 'DARGAH_DB_PASSWORD'],
      ['postgres', 'POSTGRES_PASSWORD'],
      ...TEMPORAL_SERVICES.map((name): [string, string] => [name, 'POSTGRES_PASSWORD']),
      ['temporal-schema', 'POSTGRES_PASSWORD'],
      ['api-a', 'PAGES_CSRF_SECRET'],
      ['api-b', 'PAGES_CSRF_SECRET'],
      ['api-a', 'DASHBOARD_SECRETS_KEY'],
      ['api-b', 'DASHBOARD_SECRETS_KEY'],
      ['grafana', 'GF_SECURITY_ADMIN_PASSWORD'],
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
    assert.doesNotMatch(text, /-p[a-z0-9]+\b|:dargah@|PWD: [a-z]|PASSWORD: [a-z]|SECRET: [a-z]/i);
  });

  it('publishes every port on 127.0.0.1 only: the API and Temporal through HAProxy on 3000 and 7233 (the API behind a TLS proxy; Temporal does not authenticate), the UI on 8233', () => {
    const published = Object.entries(services).flatMap(([name, s]) => (s.ports ?? []).map((p) => [name, String(p)] as const));
    assert.ok(published.length > 0);
    for (const [name, port] of published) assert.match(port, /^127\.0\.0\.1:\d+:\d+$/, `${name} publishes ${port} on loopback only`);
    assert.deepEqual(services.haproxy!.ports, ['127.0.0.1:3000:3000', '127.0.0.1:7233:7233']);
    for (const name of ['api-a', 'api-b']) assert.equal(loadConfig(environmentOf(name)).HOST, '0.0.0.0', 'the API listens on all interfaces inside its container');
    assert.ok(services['temporal-ui']!.ports!.includes('127.0.0.1:8233:8080'));
    assert.deepEqual(published.map(([name]) => name).sort(), ['bank-sim', 'grafana', 'haproxy', 'haproxy', 'prometheus', 'temporal-ui'], 'nothing else is published (the bank simulator\'s page is for customers\' browsers): not MySQL, PostgreSQL, a replica or a Temporal service; Prometheus and Grafana for the operator');
    assert.ok(services.prometheus!.ports!.includes('127.0.0.1:9090:9090'));
    assert.ok(services.grafana!.ports!.includes('127.0.0.1:3001:3000'));
  });

  it('runs the bank simulator as its own service with its own state, and points test mode at it (live mode at the PSP from the environment)', () => {
    const sim = services['bank-sim']!;
    const script = sim.command!.join(' ').match(/npm run ([\w-]+)/)?.[1];
    assert.equal(script, 'bank-sim');
    assert.ok(pkg.scripts[script] !== undefined);
    const simEnv = environmentOf('bank-sim');
    assert.equal(simEnv.BANK_SIM_HOST, '0.0.0.0');
    const state = (sim.volumes ?? []).find((v) => v.endsWith(':/data'));
    assert.ok(state !== undefined && simEnv.BANK_SIM_STATE_FILE!.startsWith('/data/'), 'its ledger survives a restart on a volume');
    assert.ok(sim.ports!.includes(`127.0.0.1:${simEnv.BANK_SIM_PORT}:${simEnv.BANK_SIM_PORT}`), "customers' browsers reach its page");
    for (const name of GATEWAY) {
      const config = loadConfig(environmentOf(name));
      assert.equal(config.SANDBOX_BANK_URL, `http://bank-sim:${simEnv.BANK_SIM_PORT}`);
      assert.equal(config.SANDBOX_BANK_TERMINAL_ID, simEnv.BANK_SIM_TERMINAL_ID);
      assert.equal(config.SANDBOX_BANK_PAGE_URL, `http://localhost:${simEnv.BANK_SIM_PORT}`);
      assert.equal(config.BANK_BASE_URL, '', 'no PSP unless the operator sets one');
      const live = loadConfig(environmentOf(name, { ...SECRETS, BANK_BASE_URL: 'https://psp.example', BANK_TERMINAL_ID: '998877', BANK_PASSWORD: 'terminal-password-from-psp' }));
      assert.deepEqual([live.BANK_BASE_URL, live.BANK_TERMINAL_ID, live.BANK_PASSWORD], ['https://psp.example', '998877', 'terminal-password-from-psp']);
    }
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
      assert.ok(!(services[name]!.ports ?? []).some((p) => p.endsWith(`:${config.API_METRICS_PORT}`) || p.endsWith(`:${config.WORKER_METRICS_PORT}`)), `${name}'s metrics are not published`);
    }
    const mounts = (name: string) => Object.fromEntries((services[name]!.volumes ?? []).filter((v) => v.startsWith('./')).map((v) => [v.split(':')[1]!, v.split(':')[0]!.replace(/^\.\//, '')]));
    const prometheusMounts = mounts('prometheus');
    for (const file of Object.values(prometheusMounts)) assert.ok(existsSync(file), `${file} exists`);
    const prometheus = parse(readFileSync(prometheusMounts['/etc/prometheus/prometheus.yml']!, 'utf8')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; dns_sd_configs: { names: string[]; port: number }[] }[];
    };
    for (const rules of prometheus.rule_files) assert.ok(prometheusMounts[rules] !== undefined, `the rule file ${rules} is mounted`);
    const defaults = loadConfig({});
    const targets = Object.fromEntries(prometheus.scrape_configs.flatMap((job) => job.dns_sd_configs.flatMap((sd) => sd.names.map((n) => [n, sd.port]))));
    assert.deepEqual(targets, {
      'api-a': defaults.API_METRICS_PORT,
      'api-b': defaults.API_METRICS_PORT,
      'worker-a': defaults.WORKER_METRICS_PORT,
      'worker-b': defaults.WORKER_METRICS_PORT,
    });
    const grafanaMounts = mounts('grafana');
    const provisioning = Object.entries(grafanaMounts).find(([target]) => target === '/etc/grafana/provisioning')?.[1];
    assert.ok(provisioning !== undefined && existsSync(provisioning), 'provisioning is mounted');
    const datasource = parse(readFileSync(join(provisioning, 'datasources', 'prometheus.yml'), 'utf8')) as { datasources: { url: string; uid: string }[] };
    assert.equal(datasource.datasources[0]!.url, 'http://prometheus:9090');
    const provider = parse(readFileSync(join(provisioning, 'dashboards', 'dargah.yml'), 'utf8')) as { providers: { options: { path: string } }[] };
    const dashboards = grafanaMounts[provider.providers[0]!.options.path];
    assert.ok(dashboards !== undefined && existsSync(join(dashboards, 'dargah.json')), 'the dashboard folder the provider reads is mounted');
    const dashboard = JSON.parse(readFileSync(join(dashboards, 'dargah.json'), 'utf8')) as { panels: { datasource: { uid: string } }[] };
    for (const panel of dashboard.panels) assert.equal(panel.datasource.uid, datasource.datasources[0]!.uid);
  });
});
