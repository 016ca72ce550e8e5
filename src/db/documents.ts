/** The merchant's document submissions as the gateway reads them back. */
import type { Db } from './database.ts';

/** The last documents the merchant submitted (the ones under review, or approved); undefined before any. */
export function latestSubmission(db: Db, merchantId: string) {
  return db
    .selectFrom('merchant_document_submissions')
    .select(['id', 'legal_name', 'id_kind', 'national_id', 'iban', 'submitted_at'])
    .where('merchant_id', '=', merchantId)
    .where('status', '=', 'submitted')
    .orderBy('submitted_at', 'desc')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}
