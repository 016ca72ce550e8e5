/**
 * A merchant's business documents (docs/DASHBOARD.md#business-documents): the
 * legal name, the national ID of the person or company, the settlement IBAN
 * and the uploaded files. Checked by the rules of src/domain/business-documents.ts,
 * stored as a draft submission with its files, then handed to the onboarding
 * workflow (the submitDocuments Update), which alone decides whether the step
 * is in order; a refused draft is deleted again, so a refusal writes nothing.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../db/database.ts';
import {
  deleteSubmissionFiles,
  deleteSubmissionRow,
  insertDocumentFiles,
  insertDraftSubmission,
  latestSubmission,
  storedFileBytes,
  submissionFileIds,
  submittedFileCount,
  submittedFiles,
  submittedSubmissionIds,
} from '../db/documents.ts';
import { findMerchantId, lockMerchantRow, merchantOnboardingStatus } from '../db/merchants.ts';
import type { DocumentStore } from '../adapters/document-store.ts';
import {
  checkBusinessDetails,
  checkDocumentFile,
  DOCUMENT_MAX_FILES,
  type BusinessDetails,
  type DocumentFileError,
  type DocumentsFieldError,
  type DocumentType,
} from '../domain/business-documents.ts';
import { OnboardingRefused } from '../domain/onboarding.ts';
import { submitDocumentsUpdate } from '../domain/onboarding-workflow.ts';
import { onboardingUpdate } from '../temporal/onboarding.ts';
import { OnboardingError } from './merchants.ts';
import type { OnboardingDeps } from './onboarding.ts';

export type DocumentsProblem = DocumentsFieldError | DocumentFileError;

/** Submitted documents that break a rule: every problem at once, so the form can show them all. */
export class DocumentsInvalid extends Error {
  override name = 'DocumentsInvalid';
  readonly problems: DocumentsProblem[];
  constructor(problems: DocumentsProblem[]) {
    super(`the documents are not valid: ${problems.join(', ')}`);
    this.problems = problems;
  }
}

export interface UploadedFile {
  /** The name the uploader gave it: kept for the operator, never used as a path. */
  name: string;
  bytes: Uint8Array;
}

export interface DocumentsFields {
  legal_name: string;
  id_kind: string;
  national_id: string;
  iban: string;
}

const FILE_NAME_MAX = 255;
const cleanName = (name: string) =>
  [...name.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim()].slice(0, FILE_NAME_MAX).join('') || 'document';

/**
 * Checks and submits the documents. The first submission needs at least one
 * file; a resubmission may add files or keep the ones already sent.
 * Throws DocumentsInvalid (bad fields or files) or OnboardingRefused (out of order).
 */
export async function submitDocuments(
  deps: OnboardingDeps & { store: DocumentStore },
  merchantId: string,
  fields: DocumentsFields,
  files: UploadedFile[],
) {
  const { db, store } = deps;
  const merchant = await findMerchantId(db, merchantId);
  if (merchant === undefined) throw new OnboardingError(`no merchant ${merchantId}`);
  const checked = checkBusinessDetails(fields);
  const problems: DocumentsProblem[] = 'errors' in checked ? [...checked.errors] : [];
  const typed: { name: string; bytes: Uint8Array; type: DocumentType }[] = [];
  if (files.length > DOCUMENT_MAX_FILES) problems.push('file_count');
  for (const file of files.slice(0, DOCUMENT_MAX_FILES)) {
    const result = checkDocumentFile(file.bytes);
    if ('error' in result) {
      if (!problems.includes(result.error)) problems.push(result.error);
    } else typed.push({ name: cleanName(file.name), bytes: file.bytes, type: result.type });
  }
  if (files.length === 0 && (await submittedFileCount(db, merchantId)) === 0) problems.push('file_required');
  if (problems.length > 0 || !('details' in checked)) throw new DocumentsInvalid(problems);

  // New files after a rejection replace the rejected sets: they do not count against the quota, and go once this set is taken.
  const rejectedSets = typed.length > 0 ? await rejectedSubmissions(db, merchantId) : [];
  const submissionId = randomUUID();
  await storeDraft(db, store, merchantId, submissionId, checked.details, typed, rejectedSets);
  let view;
  try {
    view = await onboardingUpdate(db, deps.temporal, deps.config, merchantId, submitDocumentsUpdate, {
      submission_id: submissionId,
    });
  } catch (error) {
    // Refused: the draft goes again. Any other failure (Temporal away) keeps it: the Update may still be taken.
    if (error instanceof OnboardingRefused) await deleteSubmission(db, store, merchantId, submissionId, 'draft');
    throw error;
  }
  for (const id of rejectedSets) await deleteSubmission(db, store, merchantId, id, 'submitted');
  return view;
}

/**
 * The pruning rule: while the merchant's documents stand rejected by the
 * operator, every set submitted so far is a rejected one. A resubmission that
 * brings files replaces them, so they are deleted, rows and files, once the new
 * set is taken; one without files keeps them (it relies on them).
 */
async function rejectedSubmissions(db: Db, merchantId: string): Promise<string[]> {
  const merchant = await merchantOnboardingStatus(db, merchantId);
  if (merchant?.onboarding_status !== 'rejected') return [];
  return submittedSubmissionIds(db, merchantId);
}

async function storeDraft(
  db: Db,
  store: DocumentStore,
  merchantId: string,
  submissionId: string,
  details: BusinessDetails,
  files: { name: string; bytes: Uint8Array; type: DocumentType }[],
  replacedSets: string[],
): Promise<void> {
  const now = new Date();
  const rows = files.map((f) => ({
    id: randomUUID(),
    merchant_id: merchantId,
    submission_id: submissionId,
    original_name: f.name,
    content_type: f.type,
    size_bytes: f.bytes.length,
    sha256: createHash('sha256').update(f.bytes).digest(),
    created_at: now,
  }));
  const adding = rows.reduce((sum, r) => sum + r.size_bytes, 0);
  // The bytes first: a row never names a file that is not there.
  for (const [i, row] of rows.entries()) await store.write(merchantId, row.id, files[i]!.bytes);
  try {
    await db.transaction().execute(async (trx) => {
      // The merchant's row locked: two submissions at once cannot both take the last of the quota.
      await lockMerchantRow(trx, merchantId);
      if (adding > 0) {
        const bytes = await storedFileBytes(trx, merchantId, replacedSets);
        if (bytes + adding > store.quotaBytes) throw new DocumentsInvalid(['file_quota']);
      }
      await insertDraftSubmission(trx, merchantId, submissionId, details, now);
      if (rows.length > 0) await insertDocumentFiles(trx, rows);
    });
  } catch (error) {
    for (const row of rows) await store.remove(merchantId, row.id);
    throw error;
  }
}

/** Deletes a submission in the given status, its file rows and its files. */
async function deleteSubmission(
  db: Db,
  store: DocumentStore,
  merchantId: string,
  submissionId: string,
  status: 'draft' | 'submitted',
): Promise<void> {
  const files = await submissionFileIds(db, submissionId);
  await db.transaction().execute(async (trx) => {
    await deleteSubmissionFiles(trx, submissionId);
    await deleteSubmissionRow(trx, submissionId, status);
  });
  // Rows first: a row never names a file that is not there.
  for (const { id } of files) await store.remove(merchantId, id);
}

/** The documents as last submitted (the form's values) and every file submitted so far; undefined before the first submission. */
export async function currentDocuments(db: Db, merchantId: string) {
  const submission = await latestSubmission(db, merchantId);
  if (submission === undefined) return undefined;
  const files = await submittedFiles(db, merchantId);
  return { submission, files };
}

/**
 * The operator's view (`merchants documents`): the submitted details and files;
 * with `outputDir`, a copy of every file written there as `<file id>-<name>`.
 */
export async function operatorDocuments(
  deps: { db: Db; store: DocumentStore },
  merchantId: string,
  outputDir?: string,
) {
  const merchant = await findMerchantId(deps.db, merchantId);
  if (merchant === undefined) throw new OnboardingError(`no merchant ${merchantId}`);
  const current = await currentDocuments(deps.db, merchantId);
  if (current === undefined) return { merchant_id: merchantId, submitted: false, files: [] };
  if (outputDir !== undefined) await mkdir(outputDir, { recursive: true, mode: 0o700 });
  const files = [];
  for (const f of current.files) {
    let copy: string | undefined;
    if (outputDir !== undefined) {
      copy = join(outputDir, `${f.id}-${f.original_name.replace(/[^\p{L}\p{N}._-]/gu, '_')}`);
      await writeFile(copy, await deps.store.read(merchantId, f.id), { mode: 0o600 });
    }
    files.push({
      file_id: f.id,
      name: f.original_name,
      content_type: f.content_type,
      size_bytes: f.size_bytes,
      sha256: f.sha256.toString('hex'),
      uploaded_at: f.created_at.toISOString(),
      ...(copy ? { copy } : {}),
    });
  }
  const s = current.submission;
  return {
    merchant_id: merchantId,
    submitted: true,
    legal_name: s.legal_name,
    id_kind: s.id_kind,
    national_id: s.national_id,
    iban: s.iban,
    submitted_at: s.submitted_at?.toISOString() ?? null,
    files,
  };
}
