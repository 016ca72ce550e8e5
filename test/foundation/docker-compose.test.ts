/**
 * No Docker engine runs on the development machines, so docker-compose.yml
 * is kept correct here: it parses, names the services of the production
 * topology with pinned images, and gives the gateway exactly the settings
 * the code reads, pointing at the services that provide them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigSchema, loadConfig } from '../../src/config.ts';

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
}

const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as { services: Record<string, Service> };
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
const services = compose.services;

describe('docker-compose.yml', () => {
  it('describes the production topology: MySQL 8, Temporal on MySQL, Temporal UI, api and worker', () => {
    assert.deepEqual(Object.keys(services).sort(), ['api', 'migrate', 'mysql', 'temporal', 'temporal-ui', 'worker']);
    assert.match(services.mysql!.image!, /^mysql:8\./);
    assert.match(services.temporal!.image!, /^temporalio\/auto-setup:\d+\.\d+\.\d+$/);
    assert.equal(services.temporal!.environment!.DB, 'mysql8');
    assert.equal(services.temporal!.environment!.MYSQL_SEEDS, 'mysql');
    assert.equal(services.temporal!.environment!.MYSQL_PWD, services.mysql!.environment!.MYSQL_ROOT_PASSWORD);
    assert.match(services['temporal-ui']!.image!, /^temporalio\/ui:\d+\.\d+\.\d+$/);
    assert.equal(services['temporal-ui']!.environment!.TEMPORAL_ADDRESS, 'temporal:7233');
  });

  it('pins every image to a version', () => {
    for (const [name, service] of Object.entries(services)) {
      assert.ok(service.image !== undefined, `${name} has an image`);
      assert.doesNotMatch(service.image, /:latest$|^[^:]+$/, `${name} pins its image`);
    }
  });

  for (const name of ['api', 'worker', 'migrate']) {
    it(`${name}: runs an npm script that exists, with only settings the code reads, pointing at the right services`, () => {
      const service = services[name]!;
      const script = service.command!.join(' ').match(/npm run (\w+)/)?.[1];
      assert.ok(script !== undefined && pkg.scripts[script] !== undefined, `npm script of ${name}`);
      const env = service.environment!;
      const known = new Set(Object.keys(ConfigSchema.properties));
      for (const variable of Object.keys(env)) assert.ok(known.has(variable), `${name} sets ${variable}, which the code does not read`);
      const config = loadConfig(env);
      const db = new URL(config.DATABASE_URL);
      assert.equal(db.hostname, 'mysql');
      assert.equal(db.pathname, `/${services.mysql!.environment!.MYSQL_DATABASE}`);
      assert.equal(decodeURIComponent(db.password), services.mysql!.environment!.MYSQL_ROOT_PASSWORD);
      assert.equal(config.TEMPORAL_ADDRESS, 'temporal:7233');
    });
  }

  it('publishes the API on 3000 and the Temporal UI on 8233, listening on all interfaces inside its container', () => {
    assert.ok(services.api!.ports!.includes('3000:3000'));
    assert.equal(loadConfig(services.api!.environment).HOST, '0.0.0.0');
    assert.ok(services['temporal-ui']!.ports!.includes('8233:8080'));
  });

  it('starts api and worker only after the migrations ran', () => {
    for (const name of ['api', 'worker']) {
      const deps = services[name]!.depends_on as Record<string, { condition: string }>;
      assert.equal(deps.migrate?.condition, 'service_completed_successfully');
    }
  });
});
