import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
//
// Idempotency keys and API key prefixes are compared byte for byte. Under the
// database's utf8mb4_unicode_ci they matched regardless of case (and of some
// accents): a client's `Order-1` replayed or refused its `order-1`, and two
// keys whose base64url prefixes differ only in case could not both exist.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE idempotency_keys MODIFY idempotency_key varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL`.execute(
    db,
  );
  await sql`ALTER TABLE api_keys MODIFY prefix varchar(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE api_keys MODIFY prefix varchar(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL`.execute(
    db,
  );
  await sql`ALTER TABLE idempotency_keys MODIFY idempotency_key varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL`.execute(
    db,
  );
}
