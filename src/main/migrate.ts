// `npm run migrate`: creates the database if needed and applies pending migrations.
import { loadConfig, migrationDatabaseUrl } from '../config.ts';
import { createDatabase } from '../db/database.ts';
import { ensureDatabase, migrateToLatest } from '../db/migrate.ts';
import { startupMessage } from './run.ts';

try {
  const config = loadConfig();
  // As the schema's owner: the gateway's own user may not change tables or the ledger's triggers.
  const url = migrationDatabaseUrl(config);
  await ensureDatabase(url);
  // A migration may rebuild a large table: no per-query limit here.
  const { db } = createDatabase(url, { poolSize: 1, queryTimeoutMs: 0 });
  await migrateToLatest(db);
  await db.destroy();
  process.stdout.write('migrations applied\n');
} catch (error) {
  process.stderr.write(`migrate: ${startupMessage(error)}\n`);
  process.exit(1);
}
