/**
 * Rows for the retention test (retention.test.ts): in every pruned table, some
 * past their period (`old`) and some inside it (`recent`), each by the rule's
 * own column and condition; and in the kept tables, rows years old that no rule
 * may touch. Written straight into the tables, as the gateway would have left them.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { documentStore } from '../../src/adapters/document-store.ts';
import type { Db } from '../../src/db/database.ts';
import type { PrunedTable } from '../../src/domain/retention.ts';
import { newMerchant, type Harness } from '../support/harness.ts';
import { markSeeded } from '../support/ledger.ts';

const DAY = 86_400_000;
const MINUTE = 60_000;

type Ids = Partial<Record<PrunedTable, string[]>>;

export interface Seeded {
  old: Ids;
  recent: Ids;
  /** The merchants made for the documents' cases. */
  merchants: string[];
  filesGone: { merchant_id: string; id: string }[];
  filesKept: { merchant_id: string; id: string }[];
  /** Which of `ids` are still in `table`, in their order. */
  present(db: Db, table: string, ids: string[]): Promise<string[]>;
}

const hex = (b: Buffer) => b.toString('hex');

export async function seedRetention(h: Harness, merchantId: string): Promise<Seeded> {
  const { db, config } = h;
  const now = Date.now();
  const at = (msAgo: number) => new Date(now - msAgo);
  const eventsKeep = config.EVENT_RETENTION_DAYS * DAY;
  const old: Required<Ids> = {
    idempotency_keys: [],
    webhook_attempts: [],
    events: [],
    user_sessions: [],
    user_email_tokens: [],
    user_sign_in_challenges: [],
    rate_limit_counters: [],
    merchant_document_files: [],
    merchant_document_submissions: [],
  };
  const recent: Required<Ids> = {
    idempotency_keys: [],
    webhook_attempts: [],
    events: [],
    user_sessions: [],
    user_email_tokens: [],
    user_sign_in_challenges: [],
    rate_limit_counters: [],
    merchant_document_files: [],
    merchant_document_submissions: [],
  };

  // Idempotency keys: expired (gone), live and expired-but-held (kept).
  const key = (name: string, expiresAgo: number, lockedFor: number | null = null) => ({
    merchant_id: merchantId,
    mode: 'test' as const,
    operation: 'create_payment',
    idempotency_key: `retention-${name}`,
    request_hash: '0'.repeat(64),
    resource_id: randomUUID(),
    locked_until: lockedFor === null ? null : at(-lockedFor),
    response_status: 201,
    response_body: '{}',
    created_at: at(expiresAgo + DAY),
    expires_at: at(expiresAgo),
  });
  await db
    .insertInto('idempotency_keys')
    .values([
      key('expired-1', MINUTE),
      key('expired-2', 2 * DAY),
      key('expired-3', 3 * DAY),
      key('live', -DAY),
      key('held', MINUTE, 30_000),
    ])
    .execute();
  old.idempotency_keys.push('retention-expired-1', 'retention-expired-2', 'retention-expired-3');
  recent.idempotency_keys.push('retention-live', 'retention-held');

  // Events and attempts: an endpoint to deliver to.
  const endpointId = randomUUID();
  await db
    .insertInto('webhook_endpoints')
    .values({
      id: endpointId,
      merchant_id: merchantId,
      mode: 'test',
      url: 'https://example.com/hook',
      events: null,
      secret: `whsec_${hex(randomBytes(24))}`,
      created_at: at(400 * DAY),
    })
    .execute();
  const event = async (createdAgo: number) => {
    const id = `evt_${hex(randomBytes(16))}`;
    await db
      .insertInto('events')
      .values({
        id,
        merchant_id: merchantId,
        mode: 'test',
        type: 'payment.created',
        object_id: randomUUID(),
        body: '{}',
        created_at: at(createdAgo),
      })
      .execute();
    return id;
  };
  const attempt = async (eventId: string, attemptedAgo: number) => {
    const inserted = await db
      .insertInto('webhook_attempts')
      .values({
        event_id: eventId,
        endpoint_id: endpointId,
        delivery_id: `webhook-${eventId}`,
        attempt: 1,
        attempted_at: at(attemptedAgo),
        response_status: 500,
        latency_ms: 3,
        error: 'http_status',
        succeeded: 0,
      })
      .executeTakeFirstOrThrow();
    return String(inserted.insertId);
  };
  const quiet = await event(eventsKeep + DAY); // old, never delivered
  const delivered = await event(eventsKeep + 5 * DAY); // old, its attempts old
  old.webhook_attempts.push(
    await attempt(delivered, eventsKeep + 5 * DAY),
    await attempt(delivered, eventsKeep + 4 * DAY),
  );
  const redelivered = await event(eventsKeep + 30 * DAY); // old, but redelivered lately: stays while that attempt does
  old.webhook_attempts.push(await attempt(redelivered, eventsKeep + 30 * DAY));
  recent.webhook_attempts.push(await attempt(redelivered, 2 * DAY));
  const fresh = await event(eventsKeep - DAY);
  recent.webhook_attempts.push(await attempt(fresh, eventsKeep - DAY));
  old.events.push(quiet, delivered, await event(eventsKeep + 100 * DAY));
  recent.events.push(redelivered, fresh, await event(MINUTE));

  // A dashboard user's sessions, emailed links and half-done sign-ins.
  const userId = randomUUID();
  await db
    .insertInto('users')
    .values({
      id: userId,
      merchant_id: merchantId,
      email: `retention-${userId}@example.com`,
      password_hash: '$argon2id$v=19$m=19456,t=2,p=1$x$y',
      created_at: at(400 * DAY),
    })
    .execute();
  const idle = config.DASHBOARD_SESSION_IDLE_SECONDS * 1000;
  const session = async (lastSeenAgo: number, expiresIn: number, into: string[]) => {
    const token_hash = randomBytes(32);
    await db
      .insertInto('user_sessions')
      .values({
        token_hash,
        user_id: userId,
        created_at: at(lastSeenAgo + MINUTE),
        last_seen_at: at(lastSeenAgo),
        expires_at: at(-expiresIn),
      })
      .execute();
    into.push(hex(token_hash));
  };
  await session(2 * idle, DAY, old.user_sessions); // idle too long
  await session(MINUTE, -MINUTE, old.user_sessions); // past its absolute end
  await session(MINUTE, DAY, recent.user_sessions);
  for (const [table, into, expiresIn] of [
    ['user_email_tokens', old, -MINUTE],
    ['user_email_tokens', recent, DAY],
    ['user_sign_in_challenges', old, -DAY],
    ['user_sign_in_challenges', recent, 5 * MINUTE],
  ] as const) {
    const token_hash = randomBytes(32);
    if (table === 'user_email_tokens')
      await db
        .insertInto(table)
        .values({ token_hash, user_id: userId, purpose: 'reset', created_at: at(DAY), expires_at: at(-expiresIn) })
        .execute();
    else
      await db
        .insertInto(table)
        .values({ token_hash, user_id: userId, created_at: at(DAY), expires_at: at(-expiresIn) })
        .execute();
    into[table].push(hex(token_hash));
  }

  // Rate-limit windows: 3 days old (gone), 1 day old and current (kept).
  for (const [into, startedAgo] of [
    [old, 3 * DAY],
    [recent, DAY],
    [recent, 0],
  ] as const) {
    const bucket = `retention:${randomUUID()}`;
    await db
      .insertInto('rate_limit_counters')
      .values({ bucket, window_start: now - startedAgo - (now % MINUTE), hits: 3 })
      .execute();
    into.rate_limit_counters.push(bucket);
  }

  // Documents: merchants rejected long ago (gone) and lately (kept), one approved long ago (kept); drafts old and new.
  const store = documentStore(config);
  const filesGone: Seeded['filesGone'] = [];
  const filesKept: Seeded['filesKept'] = [];
  const merchants: string[] = [];
  const submission = async (owner: string, status: 'draft' | 'submitted', createdAgo: number, gone: boolean) => {
    const id = randomUUID();
    await db
      .insertInto('merchant_document_submissions')
      .values({
        id,
        merchant_id: owner,
        legal_name: 'Retention Co',
        id_kind: 'company',
        national_id: '10101010101',
        iban: 'IR062960000000100324200001',
        status,
        created_at: at(createdAgo),
        ...(status === 'submitted' ? { submitted_at: at(createdAgo) } : {}),
      })
      .execute();
    (gone ? old : recent).merchant_document_submissions.push(id);
    for (let i = 0; i < 2; i++) {
      const bytes = randomBytes(64);
      const file = { id: randomUUID(), merchant_id: owner };
      await store.write(owner, file.id, bytes);
      await db
        .insertInto('merchant_document_files')
        .values({
          ...file,
          submission_id: id,
          original_name: `doc-${i}.pdf`,
          content_type: 'application/pdf',
          size_bytes: bytes.length,
          sha256: createHash('sha256').update(bytes).digest(),
          created_at: at(createdAgo),
        })
        .execute();
      (gone ? old : recent).merchant_document_files.push(file.id);
      (gone ? filesGone : filesKept).push(file);
    }
  };
  const rejectedKeep = config.REJECTED_DOCUMENTS_RETENTION_DAYS * DAY;
  for (const [status, updatedAgo, gone] of [
    ['rejected', rejectedKeep + DAY, true],
    ['rejected', rejectedKeep - DAY, false],
    ['approved', 3 * rejectedKeep, false],
  ] as const) {
    const { merchantId: owner } = await newMerchant();
    merchants.push(owner);
    markSeeded(owner);
    await db
      .updateTable('merchants')
      .set({
        onboarding_status: status,
        onboarding_updated_at: at(updatedAgo),
        ...(status === 'rejected' ? { rejection_reason: 'unreadable scan' } : {}),
      })
      .where('id', '=', owner)
      .execute();
    await submission(owner, 'submitted', updatedAgo + 2 * DAY, gone);
    await submission(owner, 'submitted', updatedAgo + DAY, gone);
  }
  await submission(merchants[2]!, 'draft', 8 * DAY, true);
  await submission(merchants[2]!, 'draft', MINUTE, false);

  // Kept tables, years old: nothing prunes them by age.
  const years = at(6 * 365 * DAY);
  await db
    .insertInto('audit_log')
    .values({ created_at: years, merchant_id: merchantId, user_id: userId, action: 'key_created', detail: 'retention' })
    .execute();
  await db
    .insertInto('onboarding_events')
    .values({
      id: `${merchantId}:v99`,
      merchant_id: merchantId,
      type: 'gateway_rejected',
      status: 'rejected',
      reason: 'old',
      created_at: years,
    })
    .execute();
  await db
    .updateTable('api_keys')
    .set({ revoked_at: years, created_at: years })
    .where('merchant_id', '=', merchantId)
    .execute();
  await db.updateTable('webhook_endpoints').set({ deleted_at: years }).where('id', '=', endpointId).execute();

  return {
    old,
    recent,
    merchants,
    filesGone,
    filesKept,
    present: (database, table, ids) => present(database, table, ids),
  };
}

const KEY_COLUMN: Record<PrunedTable, string> = {
  idempotency_keys: 'idempotency_key',
  webhook_attempts: 'id',
  events: 'id',
  user_sessions: 'token_hash',
  user_email_tokens: 'token_hash',
  user_sign_in_challenges: 'token_hash',
  rate_limit_counters: 'bucket',
  merchant_document_files: 'id',
  merchant_document_submissions: 'id',
};

async function present(db: Db, table: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const column = KEY_COLUMN[table as PrunedTable];
  const binary = column === 'token_hash';
  const values = ids.map((id) => (binary ? Buffer.from(id, 'hex') : id));
  const rows = await sql<{
    k: string | Buffer | number;
  }>`SELECT ${sql.ref(column)} AS k FROM ${sql.table(table)} WHERE ${sql.ref(column)} IN (${sql.join(values)})`.execute(
    db,
  );
  const found = new Set(rows.rows.map((r) => (Buffer.isBuffer(r.k) ? hex(r.k) : String(r.k))));
  return ids.filter((id) => found.has(id));
}
