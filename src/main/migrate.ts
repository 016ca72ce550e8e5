// `npm run migrate`: creates the database if needed and applies pending migrations.
import { loadConfig } from '../config.ts';
import { createDatabase } from '../db/database.ts';
import { ensureDatabase, migrateToLatest } from '../db/migrate.ts';
import { startupMessage } from './run.ts';

try {
  const config = loadConfig();
  await ensureDatabase(config.DATABASE_URL);
  // A migration may rebuild a large table: no per-query limit here.
  const { db } = createDatabase(config.DATABASE_URL, { poolSize: 1, queryTimeoutMs: 0 });
  await migrateToLatest(db);
  await db.destroy();
  process.stdout.write('migrations applied\n');
} catch (error) {
  process.stderr.write(`migrate: ${startupMessage(error)}\n`);
  process.exit(1);
}
