/**
 * The gateway's MySQL user holds rows only: the migrations run as a user of
 * their own (MIGRATE_DATABASE_URL), so the user the API and the workers connect
 * with cannot drop the ledger's append-only triggers nor change a table. The
 * real init script (deploy/mysql-init/01-users.sh) creates both users on the
 * real server, the real `npm run migrate` entry point builds the schema as the
 * migration user, and the gateway's user is then refused every change to it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection, type Connection } from 'mysql2/promise';
import { createDatabase } from '../../src/db/database.ts';
import { createMerchant } from '../../src/merchants/merchants.ts';
import { testConfig } from '../support/harness.ts';

const run = promisify(execFile);

describe('database users: migrations as their own user, the gateway on rows only', function () {
  this.timeout(180_000);
  const root = new URL(testConfig().DATABASE_URL);
  const suffix = randomBytes(4).toString('hex');
  const names = {
    DARGAH_DB_NAME: `${root.pathname.slice(1)}_users`,
    DARGAH_DB_USER: `dg_app_${suffix}`,
    DARGAH_MIGRATE_DB_USER: `dg_migrate_${suffix}`,
  };
  const passwords = {
    DARGAH_DB_PASSWORD: randomBytes(24).toString('hex'),
    DARGAH_MIGRATE_DB_PASSWORD: randomBytes(24).toString('hex'),
  };
  const urlOf = (user: string, password: string) => {
    const url = new URL(root);
    url.username = user;
    url.password = password;
    url.pathname = `/${names.DARGAH_DB_NAME}`;
    return url.toString();
  };
  const appUrl = urlOf(names.DARGAH_DB_USER, passwords.DARGAH_DB_PASSWORD);
  const migrateUrl = urlOf(names.DARGAH_MIGRATE_DB_USER, passwords.DARGAH_MIGRATE_DB_PASSWORD);
  let admin: Connection;
  let app: Connection;

  before(async () => {
    admin = await createConnection({ uri: root.toString() });
    await admin.query(`DROP DATABASE IF EXISTS \`${names.DARGAH_DB_NAME}\``);
    // The script talks to the container's server through its socket as root; here the `mysql` it runs is the test server's root.
    const bin = mkdtempSync(join(tmpdir(), 'dargah-mysql-'));
    const shim = join(bin, 'mysql');
    writeFileSync(
      shim,
      `#!/bin/sh\nexec /usr/bin/mysql -h ${root.hostname} -P ${root.port || '3306'} -u ${decodeURIComponent(root.username)}\n`,
    );
    chmodSync(shim, 0o755);
    await run('deploy/mysql-init/01-users.sh', [], {
      env: {
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        MYSQL_ROOT_PASSWORD: decodeURIComponent(root.password),
        ...names,
        ...passwords,
      },
    });
    // The real entry point: the schema built as the migration user while DATABASE_URL names the gateway's.
    const migrated = await run(process.execPath, ['src/main/migrate.ts'], {
      env: { ...process.env, DATABASE_URL: appUrl, MIGRATE_DATABASE_URL: migrateUrl },
    });
    assert.match(migrated.stdout, /migrations applied/);
    app = await createConnection({ uri: appUrl });
  });

  after(async () => {
    await app?.end();
    for (const user of [names.DARGAH_DB_USER, names.DARGAH_MIGRATE_DB_USER])
      await admin.query(`DROP USER IF EXISTS '${user}'@'%'`);
    await admin.query(`DROP DATABASE IF EXISTS \`${names.DARGAH_DB_NAME}\``);
    await admin.end();
  });

  it('the migration user built the schema, the ledger triggers included', async () => {
    const [triggers] = await admin.query(
      `SELECT TRIGGER_NAME AS name, DEFINER AS definer FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ? ORDER BY 1`,
      [names.DARGAH_DB_NAME],
    );
    const rows = triggers as { name: string; definer: string }[];
    assert.deepEqual(
      rows.map((t) => t.name),
      [
        'ledger_entries_no_delete',
        'ledger_entries_no_update',
        'ledger_postings_no_delete',
        'ledger_postings_no_update',
      ],
    );
    for (const t of rows)
      assert.match(t.definer, new RegExp(`^${names.DARGAH_MIGRATE_DB_USER}@`), 'defined by the schema owner');
  });

  it("the gateway's user writes rows, the ledger's included, and the triggers keep the ledger append-only for it", async () => {
    const { db } = createDatabase(appUrl, { poolSize: 1 });
    try {
      const merchant = await createMerchant(db, testConfig(), { name: 'Grants Shop' });
      await app.query(
        `INSERT INTO ledger_postings (cause, movement, merchant_id, mode, created_at) VALUES ('grants-test', 'test', ?, 'test', NOW(3))`,
        [merchant.merchant_id],
      );
      await assert.rejects(
        app.query(`UPDATE ledger_postings SET movement = 'changed' WHERE cause = 'grants-test'`),
        /append-only/,
      );
      await assert.rejects(app.query(`DELETE FROM ledger_postings WHERE cause = 'grants-test'`), /append-only/);
    } finally {
      await db.destroy();
    }
  });

  for (const [what, statement] of [
    ['drop a ledger trigger', 'DROP TRIGGER ledger_entries_no_update'],
    ['create a trigger', 'CREATE TRIGGER sneaky BEFORE UPDATE ON ledger_entries FOR EACH ROW SET @x = 1'],
    ['alter a table', 'ALTER TABLE payments ADD COLUMN sneaky INT'],
    ['create a table', 'CREATE TABLE sneaky (id INT)'],
    ['drop a table', 'DROP TABLE ledger_entries'],
    ['add an index', 'CREATE INDEX sneaky ON payments (amount)'],
  ] as const) {
    it(`the gateway's user cannot ${what}`, async () => {
      await assert.rejects(app.query(statement), (error: { code?: string }) => {
        assert.match(
          error.code ?? '',
          /_ACCESS_DENIED|DENIED_ERROR/,
          `refused for want of the privilege (got ${error.code})`,
        );
        return true;
      });
    });
  }

  it('after every attempt the ledger has its four triggers and no other', async () => {
    const [triggers] = await admin.query(
      `SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ? ORDER BY 1`,
      [names.DARGAH_DB_NAME],
    );
    assert.deepEqual(
      (triggers as { name: string }[]).map((t) => t.name),
      [
        'ledger_entries_no_delete',
        'ledger_entries_no_update',
        'ledger_postings_no_delete',
        'ledger_postings_no_update',
      ],
    );
  });
});
