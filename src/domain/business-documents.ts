/**
 * The rules of a merchant's business documents (docs/DASHBOARD.md#business-documents):
 * the legal name, the national ID of a person (کد ملی, 10 digits with a check
 * digit) or of a company (شناسه ملی, 11 digits with a check digit), the
 * settlement IBAN (Sheba: IR and 24 digits, ISO 13616 mod-97), and the
 * uploaded files (PDF, JPEG or PNG by their content, at most 5 MB each).
 * Pure functions, shared by the dashboard and the CLI.
 */

export const ID_KINDS = ['person', 'company'] as const;
export type IdKind = (typeof ID_KINDS)[number];

/** Persian (۰–۹) and Arabic-Indic (٠–٩) digits as ASCII, spaces and dashes dropped: what people type or paste. */
export function asciiDigits(input: string): string {
  return input
    .replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\s\u200c-]/g, '');
}

/**
 * A person's national ID (کد ملی): 10 digits, not one digit repeated; with
 * s = Σ digit[i]·(10−i) over the first nine and r = s mod 11, the tenth digit
 * is r when r < 2, else 11 − r.
 */
export function isValidNationalId(code: string): boolean {
  if (!/^[0-9]{10}$/.test(code) || /^(\d)\1{9}$/.test(code)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i += 1) sum += Number(code[i]) * (10 - i);
  const r = sum % 11;
  return Number(code[9]) === (r < 2 ? r : 11 - r);
}

const COMPANY_WEIGHTS = [29, 27, 23, 19, 17] as const;

/**
 * A company's national ID (شناسه ملی اشخاص حقوقی): 11 digits, digits 4–9
 * not all zero; with d = the tenth digit + 2 and
 * s = Σ (digit[i] + d)·[29, 27, 23, 19, 17][i mod 5] over the first ten,
 * the eleventh digit is s mod 11 (10 counts as 0).
 */
export function isValidCompanyId(code: string): boolean {
  if (!/^[0-9]{11}$/.test(code) || /^0{6}$/.test(code.slice(3, 9))) return false;
  const d = Number(code[9]) + 2;
  let sum = 0;
  for (let i = 0; i < 10; i += 1) sum += (Number(code[i]) + d) * COMPANY_WEIGHTS[i % 5]!;
  const r = sum % 11;
  return Number(code[10]) === (r === 10 ? 0 : r);
}

/**
 * An Iranian IBAN (Sheba): `IR` and 24 digits whose ISO 13616 check holds:
 * the first four characters moved to the end, letters as numbers (I = 18,
 * R = 27), the number mod 97 is 1.
 */
export function isValidSheba(iban: string): boolean {
  if (!/^IR[0-9]{24}$/.test(iban)) return false;
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of rearranged) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

/** An IBAN as typed: spaces dropped, upper case, Persian digits as ASCII. */
export const normalizeSheba = (input: string): string => asciiDigits(input).toUpperCase();

/** A Sheba IBAN as a list shows it: the country and check digits and the last four, enough to tell accounts apart. */
export const maskSheba = (iban: string): string => `${iban.slice(0, 4)}…${iban.slice(-4)}`;

/** A Sheba IBAN in groups of four, as it is printed on cards and bank statements. */
export const groupSheba = (iban: string): string => iban.replace(/(.{4})(?=.)/g, '$1 ');

export type DocumentsFieldError = 'legal_name' | 'id_kind' | 'national_id' | 'company_id' | 'iban';

export interface BusinessDetails {
  legal_name: string;
  id_kind: IdKind;
  /** 10 digits for a person, 11 for a company. */
  national_id: string;
  iban: string;
}

export const LEGAL_NAME_MAX = 200;

/**
 * Checks the typed fields; answers the normalized details, or the fields that
 * are wrong (every one of them, so a form can mark them all at once).
 */
export function checkBusinessDetails(input: {
  legal_name: string;
  id_kind: string;
  national_id: string;
  iban: string;
}): { details: BusinessDetails } | { errors: DocumentsFieldError[] } {
  const errors: DocumentsFieldError[] = [];
  const legalName = input.legal_name.trim().replace(/\s+/g, ' ');
  if (legalName.length === 0 || [...legalName].length > LEGAL_NAME_MAX) errors.push('legal_name');
  const kind = (ID_KINDS as readonly string[]).includes(input.id_kind) ? (input.id_kind as IdKind) : undefined;
  const id = asciiDigits(input.national_id);
  if (kind === undefined) errors.push('id_kind');
  else if (kind === 'person' && !isValidNationalId(id)) errors.push('national_id');
  else if (kind === 'company' && !isValidCompanyId(id)) errors.push('company_id');
  const iban = normalizeSheba(input.iban);
  if (!isValidSheba(iban)) errors.push('iban');
  if (errors.length > 0 || kind === undefined) return { errors };
  return { details: { legal_name: legalName, id_kind: kind, national_id: id, iban } };
}

export const DOCUMENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;
/** Files one submission may carry. */
export const DOCUMENT_MAX_FILES = 3;

/**
 * The type of a file by its first bytes, whatever its name says: PDF
 * (`%PDF-`), PNG (its 8-byte signature), JPEG (FF D8 FF); undefined for
 * anything else.
 */
export function documentTypeOf(bytes: Uint8Array): DocumentType | undefined {
  const starts = (signature: number[]) => signature.every((b, i) => bytes[i] === b);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  return undefined;
}

export type DocumentFileError = 'file_type' | 'file_size' | 'file_count' | 'file_required' | 'file_quota';

/** Checks one uploaded file: its type by content and its size. */
export function checkDocumentFile(bytes: Uint8Array): { type: DocumentType } | { error: DocumentFileError } {
  if (bytes.length > DOCUMENT_MAX_BYTES) return { error: 'file_size' };
  const type = documentTypeOf(bytes);
  return type === undefined ? { error: 'file_type' } : { type };
}
