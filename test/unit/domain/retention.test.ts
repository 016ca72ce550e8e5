/**
 * Every table has a retention rule (src/domain/retention.ts), in the code and
 * in docs/RETENTION.md's table, and the two agree: a migration that creates a
 * table without a rule fails here, from the migrations' source, before the
 * main suite checks the database's own list (test/maintenance/retention.test.ts).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigSchema, loadConfig } from '../../../src/config.ts';
import { PRUNERS } from '../../../src/db/retention.ts';
import { PRUNE_ORDER, RETENTION_RULES, type RetainedTable } from '../../../src/domain/retention.ts';

const MIGRATIONS = 'src/db/migrations';

/** The tables the migrations leave: created in an `up`, less those a later `up` drops; and Kysely's own two. */
function tablesOfMigrations(): Set<string> {
  const tables = new Set(['kysely_migration', 'kysely_migration_lock']);
  for (const file of readdirSync(MIGRATIONS).sort()) {
    const source = readFileSync(join(MIGRATIONS, file), 'utf8');
    const up = source.slice(0, source.indexOf('export async function down'));
    for (const [, name] of up.matchAll(/createTable\('([a-z_]+)'\)/g)) tables.add(name!);
    // A table made by raw SQL (a binary collation Kysely's builder does not say) counts the same.
    for (const [, name] of up.matchAll(/CREATE TABLE\s+([a-z_]+)/g)) tables.add(name!);
    for (const [, name] of up.matchAll(/dropTable\('([a-z_]+)'\)/g)) tables.delete(name!);
  }
  return tables;
}

/** The rows of docs/RETENTION.md's table: table name → rule (`kept` or `pruned`). */
function documentedRules(): Map<string, string> {
  const markdown = readFileSync('docs/RETENTION.md', 'utf8');
  const rows = new Map<string, string>();
  for (const line of markdown.split('\n').filter((l) => /^\| `[a-z_]+` \|/.test(l))) {
    const cells = line.split(' | ').map((c) => c.replace(/^\| /, '').trim());
    rows.set(cells[0]!.replace(/`/g, ''), cells[1]!.replace(/\*/g, ''));
  }
  return rows;
}

describe('retention rules (docs/RETENTION.md)', () => {
  it('every table the migrations make has a rule, and every rule a table', () => {
    assert.deepEqual(Object.keys(RETENTION_RULES).sort(), [...tablesOfMigrations()].sort());
  });

  it('every pruned table is pruned once per run, after the rows that reference it, by a delete of its own', () => {
    const pruned = (Object.keys(RETENTION_RULES) as RetainedTable[]).filter(
      (t) => RETENTION_RULES[t].rule === 'pruned',
    );
    assert.deepEqual([...PRUNE_ORDER].sort(), pruned.sort());
    assert.equal(new Set(PRUNE_ORDER).size, PRUNE_ORDER.length);
    assert.ok(
      PRUNE_ORDER.indexOf('webhook_attempts') < PRUNE_ORDER.indexOf('events'),
      'attempts reference their event',
    );
    assert.ok(
      PRUNE_ORDER.indexOf('merchant_document_files') < PRUNE_ORDER.indexOf('merchant_document_submissions'),
      'files reference their submission',
    );
    assert.deepEqual(Object.keys(PRUNERS).sort(), pruned.sort());
  });

  it('a rule names only settings that exist; a kept table says why', () => {
    for (const [table, rule] of Object.entries(RETENTION_RULES)) {
      assert.ok(rule.why.length > 10, `${table}: why`);
      if ('setting' in rule) assert.ok(rule.setting in ConfigSchema.properties, `${table}: ${rule.setting}`);
    }
  });

  it('docs/RETENTION.md lists every table with the same rule', () => {
    const documented = documentedRules();
    assert.deepEqual([...documented.keys()].sort(), Object.keys(RETENTION_RULES).sort());
    for (const [table, rule] of Object.entries(RETENTION_RULES)) assert.equal(documented.get(table), rule.rule, table);
  });

  it('events outlive every delivery of them: a period no longer than the retry schedule plus a day is refused', () => {
    assert.equal(loadConfig({}).EVENT_RETENTION_DAYS, 90);
    // A schedule of almost 7 days, plus the sweep's day, is longer than 7 days of events; the default (3.2 days) is not.
    assert.throws(
      () => loadConfig({ EVENT_RETENTION_DAYS: '7', WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,600000' }),
      /EVENT_RETENTION_DAYS must be longer/,
    );
    assert.equal(loadConfig({ EVENT_RETENTION_DAYS: '7' }).EVENT_RETENTION_DAYS, 7);
  });
});
