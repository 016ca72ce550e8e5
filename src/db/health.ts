/** The readiness probe's question to MySQL: does it answer at all. */
import { sql } from 'kysely';
import type { Db } from './database.ts';

/** `select 1`: answers when MySQL does, fails when it cannot be reached. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
