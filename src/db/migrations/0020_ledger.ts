import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // One posting per money movement, named by its cause (`payment:<id>:capture`, `refund:<id>:succeeded`,
  // `settlement:<id>:reserve`, …): the unique cause makes a retried write post nothing twice.
  await db.schema
    .createTable('ledger_postings')
    .addColumn('id', 'bigint', (c) => c.primaryKey().autoIncrement())
    .addColumn('cause', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('movement', 'varchar(24)', (c) => c.notNull())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('payment_id', 'char(36)')
    .addColumn('refund_id', 'char(36)')
    .addColumn('settlement_id', 'char(36)')
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_postings_payment').on('ledger_postings').columns(['payment_id']).execute();
  await db.schema.createIndex('ledger_postings_settlement').on('ledger_postings').columns(['settlement_id']).execute();

  // The lines of a posting: a signed amount in rials on one of the merchant's accounts in one mode.
  // The lines of every posting sum to zero (the application posts no other; `ledger check` proves it).
  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'bigint', (c) => c.primaryKey().autoIncrement())
    .addColumn('posting_id', 'bigint', (c) => c.notNull().references('ledger_postings.id'))
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull())
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('account', 'varchar(16)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addCheckConstraint('ledger_entries_amount_nonzero', sql`amount <> 0`)
    .execute();
  await db.schema.createIndex('ledger_entries_posting').on('ledger_entries').columns(['posting_id']).execute();
  await db.schema
    .createIndex('ledger_entries_account')
    .on('ledger_entries')
    .columns(['merchant_id', 'mode', 'account'])
    .execute();

  await openingPostings(db);

  // Append-only: the server itself refuses to change or remove a posting or an entry; a correction is a new posting.
  for (const table of ['ledger_postings', 'ledger_entries']) {
    for (const action of ['UPDATE', 'DELETE']) {
      await sql
        .raw(
          `CREATE TRIGGER ${table}_no_${action.toLowerCase()} BEFORE ${action} ON ${table} FOR EACH ROW ` +
            `SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'the ledger is append-only: ${table} rows are never ${action === 'UPDATE' ? 'updated' : 'deleted'}'`,
        )
        .execute(db);
    }
  }
}

/**
 * The movements of the payments and refunds recorded before the ledger existed, posted under the
 * same causes the record writers use, so that a later write of the same movement posts nothing again
 * and the ledger agrees with the records from the start.
 */
async function openingPostings(db: Kysely<unknown>): Promise<void> {
  const verified = "('verified', 'partially_refunded', 'refunded')";
  const captured = "('paid', 'verified', 'partially_refunded', 'refunded', 'reversed')";
  const movements: {
    movement: string;
    from: string;
    object: 'payment' | 'refund';
    suffix: string;
    at: string;
    lines: [string, string][];
  }[] = [
    {
      movement: 'capture',
      from: `payments x WHERE x.status IN ${captured}`,
      object: 'payment',
      suffix: 'capture',
      at: 'COALESCE(x.paid_at, x.updated_at)',
      lines: [
        ['clearing', '-x.amount'],
        ['held', 'x.amount'],
      ],
    },
    {
      movement: 'verify',
      from: `payments x WHERE x.status IN ${verified}`,
      object: 'payment',
      suffix: 'verify',
      at: 'COALESCE(x.verified_at, x.updated_at)',
      lines: [
        ['held', '-x.amount'],
        ['balance', 'x.amount - x.fee'],
        ['fees', 'x.fee'],
      ],
    },
    {
      movement: 'reversal',
      from: `payments x WHERE x.status = 'reversed'`,
      object: 'payment',
      suffix: 'reversal',
      at: 'x.updated_at',
      lines: [
        ['held', '-x.amount'],
        ['clearing', 'x.amount'],
      ],
    },
    {
      movement: 'refund',
      from: 'refunds x',
      object: 'refund',
      suffix: 'pending',
      at: 'x.created_at',
      lines: [
        ['balance', '-x.amount'],
        ['refunds', 'x.amount'],
      ],
    },
    {
      movement: 'refund_succeeded',
      from: `refunds x WHERE x.status = 'succeeded'`,
      object: 'refund',
      suffix: 'succeeded',
      at: 'x.updated_at',
      lines: [
        ['refunds', '-x.amount'],
        ['clearing', 'x.amount'],
      ],
    },
    {
      movement: 'refund_failed',
      from: `refunds x WHERE x.status = 'failed'`,
      object: 'refund',
      suffix: 'failed',
      at: 'x.updated_at',
      lines: [
        ['refunds', '-x.amount'],
        ['balance', 'x.amount'],
      ],
    },
  ];
  for (const m of movements) {
    const paymentId = m.object === 'payment' ? 'x.id' : 'x.payment_id';
    const refundId = m.object === 'refund' ? 'x.id' : 'NULL';
    await sql
      .raw(
        `INSERT INTO ledger_postings (cause, movement, merchant_id, mode, payment_id, refund_id, created_at) ` +
          `SELECT CONCAT('${m.object}:', x.id, ':${m.suffix}'), '${m.movement}', x.merchant_id, x.mode, ${paymentId}, ${refundId}, ${m.at} FROM ${m.from}`,
      )
      .execute(db);
    const table = m.object === 'payment' ? 'payments' : 'refunds';
    const key = m.object === 'payment' ? 'payment_id' : 'refund_id';
    for (const [account, amount] of m.lines) {
      await sql
        .raw(
          `INSERT INTO ledger_entries (posting_id, merchant_id, mode, account, amount, created_at) ` +
            `SELECT p.id, p.merchant_id, p.mode, '${account}', ${amount}, p.created_at FROM ledger_postings p JOIN ${table} x ON x.id = p.${key} ` +
            `WHERE p.movement = '${m.movement}' AND ${amount} <> 0`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ledger_entries').ifExists().execute();
  await db.schema.dropTable('ledger_postings').ifExists().execute();
}
