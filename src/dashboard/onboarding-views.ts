/**
 * The dashboard's business documents page (docs/DASHBOARD.md#business-documents);
 * the onboarding steps of the "API & gateway" page are in onboarding-steps.ts.
 */
import type { DocumentsProblem } from '../merchants/documents.ts';
import type { OnboardingStatus } from '../domain/onboarding.ts';
import { DOCUMENT_MAX_FILES } from '../domain/business-documents.ts';
import { localDigits } from '../http/words.ts';
import { formatTime, strings } from './i18n.ts';
import { render, type ViewContext } from './views.ts';

export interface DocumentsForm {
  legal_name: string;
  id_kind: string;
  national_id: string;
  iban: string;
}

export interface SubmittedFile {
  original_name: string;
  content_type: string;
  size_bytes: number;
  created_at: Date;
}

type FieldProblem = 'legal_name' | 'id_kind' | 'national_id' | 'company_id' | 'iban';

/** The business documents page: the form (while the documents may change) with every problem shown at its field. */
export function documentsPage(
  context: ViewContext,
  data: { status: OnboardingStatus; values: DocumentsForm; files: SubmittedFile[] },
  options: { problems?: DocumentsProblem[]; notice?: string; error?: string } = {},
): string {
  const { lang } = context;
  const t = strings(lang);
  const problems = options.problems ?? [];
  const problem = (name: FieldProblem | 'files') => {
    if (name === 'files') {
      const file = problems.find((p) => p.startsWith('file_'));
      return file === undefined ? undefined : t[`doc_${file}` as `doc_file_type`];
    }
    return problems.includes(name) ? t[`doc_${name}`] : undefined;
  };
  const editable =
    data.status === 'domain_added' || data.status === 'documents_submitted' || data.status === 'rejected';
  const locked =
    data.status === 'gateway_requested' || data.status === 'under_review'
      ? t.documentsLockedText
      : data.status === 'approved' || data.status === 'live'
        ? t.documentsApprovedText
        : undefined;
  return render('documents', context, {
    title: t.documentsTitle,
    notice: options.notice,
    error: options.error ?? (problems.length > 0 ? problems.map((p) => t[`doc_${p}`]).join(' ') : undefined),
    editable,
    locked,
    domainFirst: data.status === 'account_created',
    values: data.values,
    nationalIdError: problem('national_id') ?? problem('company_id'),
    legalNameError: problem('legal_name'),
    idKindError: problem('id_kind'),
    ibanError: problem('iban'),
    filesError: problem('files'),
    maxFiles: DOCUMENT_MAX_FILES,
    files: data.files.map((f) => ({
      name: f.original_name,
      type: f.content_type.replace(/^(application|image)\//, '').toUpperCase(),
      size: localDigits(`${Math.max(1, Math.round(f.size_bytes / 1024))} KB`, lang),
      at: formatTime(f.created_at, lang),
    })),
  });
}
