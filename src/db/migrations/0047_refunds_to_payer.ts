import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// Refunds go only to the payer (docs/PAYMENTS.md#refund-states): a refund may wait for the operator's
// approval (`awaiting_approval`, 17 characters: the status column grows) or for the customer's claim with
// the card that paid (`awaiting_payer`). `held_for` says why one waits for the operator, `owner_name` is
// the paying card's account owner the identity provider named, and `claim_attempts` counts the wrong
// cards typed on the claim page (raised by a conditional update, so concurrent guesses never pass the
// bound). The approvals list reads refunds by status.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE refunds MODIFY status varchar(24) NOT NULL`.execute(db);
  await db.schema
    .alterTable('refunds')
    .addColumn('held_for', 'varchar(16)')
    .addColumn('owner_name', 'varchar(255)')
    .addColumn('claim_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('refunds')
    .dropColumn('claim_attempts')
    .dropColumn('owner_name')
    .dropColumn('held_for')
    .execute();
  await sql`ALTER TABLE refunds MODIFY status varchar(16) NOT NULL`.execute(db);
}
