import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// A merchant's webhook endpoints per mode are bounded (MAX_ENDPOINTS, 16, src/webhooks/service.ts). The
// bound was a count read before the insert, so requests at the same instant could all pass it. Each
// undeleted endpoint now holds one of the 16 places of its merchant and mode (`place`, 1..16), the unique
// key decides between two requests for the same place, and a deletion gives its place back (NULL: the
// unique key allows any number of them). Endpoints there already take places in the order they were
// made; any beyond the 16th (made by that race) keeps working without a place, and no new one is made
// until the merchant is below the bound again (docs/SECURITY.md#invariants-between-payments-and-requests).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('place', 'smallint').execute();
  await sql`UPDATE webhook_endpoints e
    JOIN (SELECT id, ROW_NUMBER() OVER (PARTITION BY merchant_id, mode ORDER BY created_at, id) AS n
            FROM webhook_endpoints WHERE deleted_at IS NULL) placed ON placed.id = e.id
    SET e.place = placed.n WHERE placed.n <= 16`.execute(db);
  await sql`ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_place_within_bound CHECK (place IS NULL OR place BETWEEN 1 AND 16)`.execute(
    db,
  );
  await db.schema
    .createIndex('webhook_endpoints_place')
    .on('webhook_endpoints')
    .columns(['merchant_id', 'mode', 'place'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_endpoints_place').on('webhook_endpoints').execute();
  await sql`ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_place_within_bound`.execute(db);
  await db.schema.alterTable('webhook_endpoints').dropColumn('place').execute();
}
