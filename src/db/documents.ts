/** The merchant's document submissions and their files' rows (docs/DASHBOARD.md#business-documents). */
import { sql, type Insertable } from 'kysely';
import type { Db, MerchantDocumentFilesTable } from './database.ts';
import type { BusinessDetails } from '../domain/business-documents.ts';

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

/** How many files the merchant's submitted sets hold. */
export async function submittedFileCount(db: Db, merchantId: string): Promise<number> {
  const row = await db
    .selectFrom('merchant_document_files as f')
    .innerJoin('merchant_document_submissions as s', 's.id', 'f.submission_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('f.merchant_id', '=', merchantId)
    .where('s.status', '=', 'submitted')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The ids of the merchant's submitted sets. */
export async function submittedSubmissionIds(db: Db, merchantId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('merchant_document_submissions')
    .select('id')
    .where('merchant_id', '=', merchantId)
    .where('status', '=', 'submitted')
    .execute();
  return rows.map((r) => r.id);
}

/** The bytes of the merchant's stored files, not counting those of the sets in `exceptSubmissions`. */
export async function storedFileBytes(db: Db, merchantId: string, exceptSubmissions: string[]): Promise<number> {
  let kept = db
    .selectFrom('merchant_document_files')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size_bytes'), eb.lit(0)).as('bytes'))
    .where('merchant_id', '=', merchantId);
  if (exceptSubmissions.length > 0) kept = kept.where('submission_id', 'not in', exceptSubmissions);
  const { bytes } = await kept.executeTakeFirstOrThrow();
  return Number(bytes);
}

/** A new submission, a draft until the onboarding workflow accepts it. */
export async function insertDraftSubmission(
  db: Db,
  merchantId: string,
  submissionId: string,
  details: BusinessDetails,
  createdAt: Date,
): Promise<void> {
  await db
    .insertInto('merchant_document_submissions')
    .values({ id: submissionId, merchant_id: merchantId, ...details, status: 'draft', created_at: createdAt })
    .execute();
}

/** The rows of a submission's files (at least one). */
export async function insertDocumentFiles(db: Db, rows: Insertable<MerchantDocumentFilesTable>[]): Promise<void> {
  await db.insertInto('merchant_document_files').values(rows).execute();
}

/** The ids of a submission's files. */
export function submissionFileIds(db: Db, submissionId: string) {
  return db.selectFrom('merchant_document_files').select('id').where('submission_id', '=', submissionId).execute();
}

/** Deletes a submission's file rows. */
export async function deleteSubmissionFiles(db: Db, submissionId: string): Promise<void> {
  await db.deleteFrom('merchant_document_files').where('submission_id', '=', submissionId).execute();
}

/** Deletes a submission, only while it is in `status`. */
export async function deleteSubmissionRow(db: Db, submissionId: string, status: 'draft' | 'submitted'): Promise<void> {
  await db
    .deleteFrom('merchant_document_submissions')
    .where('id', '=', submissionId)
    .where('status', '=', status)
    .execute();
}

/** Every file of the merchant's submitted sets, oldest first. */
export function submittedFiles(db: Db, merchantId: string) {
  return db
    .selectFrom('merchant_document_files as f')
    .innerJoin('merchant_document_submissions as s', 's.id', 'f.submission_id')
    .select(['f.id', 'f.original_name', 'f.content_type', 'f.size_bytes', 'f.sha256', 'f.created_at'])
    .where('f.merchant_id', '=', merchantId)
    .where('s.status', '=', 'submitted')
    .orderBy('f.created_at')
    .orderBy('f.id')
    .execute();
}

/** Marks the merchant's submission submitted (keeping a first submitted_at); false when it has no such submission. */
export async function markSubmissionSubmitted(db: Db, merchantId: string, submissionId: string): Promise<boolean> {
  const result = await db
    .updateTable('merchant_document_submissions')
    .set({ status: 'submitted', submitted_at: sql<Date>`coalesce(submitted_at, now(3))` })
    .where('id', '=', submissionId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
