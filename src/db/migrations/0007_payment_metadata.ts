import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The merchant's metadata as a JSON object; at most 20 keys of ≤ 500 characters, so it fits a TEXT.
  await db.schema
    .alterTable('payments')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo(sql`('{}')`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('metadata').execute();
}
