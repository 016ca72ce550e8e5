/**
 * Parsian's (PEC's) conformance corpus (test/fixtures/psps/parsian/, docs/psps/parsian.md): every
 * message of its protocol as PEC's own document and independent public integrations show it, one
 * JSON file a message, each with its sources. The connector's unit tests and the simulator's shape
 * test read PEC's messages from here, never from our simulator, so the connector and the simulator
 * cannot agree on a shape PEC does not have. The file's shape is the one every PSP's corpus has (psp,
 * operation, direction, http, message, outcome, code, sources, disagreements); a SOAP message
 * (`http.encoding` `soap`) holds its operation, its `requestData` fields (and their order) or its
 * `{operation}Result` fields, and the envelope's text; the way to the page (`query`) holds its query.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a corpus message was read: a file of a public repository, or a published document. */
export type CorpusSource = { repo: string; path: string; note: string } | { document: string; note: string };

export interface SoapRequestMessage {
  soapOperation: string;
  /** The fields of `requestData`, each as its text. */
  parameters: Record<string, string>;
  /** Their names in the order they are sent. */
  order: string[];
  envelope: string;
}

export interface SoapAnswerMessage {
  soapOperation: string;
  /** The fields of `{operation}Result`, each as its text, as PEC writes them. */
  result: Record<string, string>;
  envelope: string;
}

export interface SoapFaultMessage {
  faultcode: string;
  faultstring: string;
  envelope: string;
  status: number;
}

export interface ParsianCorpusMessage {
  /** The file's name without `.json`. */
  name: string;
  psp: 'parsian';
  /** token, page, return, confirm, reverse, or `any` (a fault any call may get). */
  operation: string;
  direction: 'request' | 'answer' | 'redirect' | 'return';
  http: { method: 'GET' | 'POST'; path: string; encoding: 'soap' | 'form' | 'query' };
  message: SoapRequestMessage | SoapAnswerMessage | SoapFaultMessage | Record<string, string>;
  /**
   * What the message means to the connector: `request`; a token's `token`/`refused`; a confirm's
   * `confirmed`/`refused`/`in_progress`; a reversal's `done`/`refused`; a return's state (OK,
   * CanceledByUser, Failed); `page`; `unavailable` (a fault).
   */
  outcome: string;
  /** PEC's Status, where the answer is one. */
  code?: number;
  sources: CorpusSource[];
  /** Where the sources differ, and what Dargah does about it. */
  disagreements: string;
}

const DIRECTIONS = new Set(['request', 'answer', 'redirect', 'return']);
const ENCODINGS = new Set(['soap', 'form', 'query']);
export const CORPUS_DIR = join(import.meta.dirname, '..', 'fixtures', 'psps', 'parsian');

/** A corpus file checked for the corpus's own shape: a malformed file fails every test that loads it. */
function checked(name: string, raw: unknown): ParsianCorpusMessage {
  const doc = raw as Partial<ParsianCorpusMessage>;
  const where = `corpus file parsian/${name}.json`;
  if (doc.psp !== 'parsian' || typeof doc.operation !== 'string' || typeof doc.outcome !== 'string') throw new Error(`${where}: psp parsian, operation and outcome are strings`);
  if (!DIRECTIONS.has(String(doc.direction))) throw new Error(`${where}: direction is one of ${[...DIRECTIONS].join(', ')}`);
  if (doc.http === undefined || !ENCODINGS.has(doc.http.encoding) || (doc.http.method !== 'GET' && doc.http.method !== 'POST')) throw new Error(`${where}: http {method, path, encoding soap|form|query}`);
  if (doc.message === undefined || typeof doc.message !== 'object') throw new Error(`${where}: no message`);
  if (!Array.isArray(doc.sources) || doc.sources.length === 0) throw new Error(`${where}: a message without a source is no corpus message`);
  for (const source of doc.sources) {
    const ok = ('repo' in source && /^[^/\s]+\/[^/\s]+$/.test(source.repo) && typeof source.path === 'string') || ('document' in source && typeof source.document === 'string');
    if (!ok || typeof source.note !== 'string' || source.note === '') throw new Error(`${where}: a source is {repo: owner/name, path, note} or {document, note}`);
  }
  if (typeof doc.disagreements !== 'string' || doc.disagreements === '') throw new Error(`${where}: disagreements is a sentence ('None.' when there are none)`);
  return { ...(doc as Omit<ParsianCorpusMessage, 'name'>), name };
}

/** Every message of Parsian's corpus, by file name. */
export function loadParsianCorpus(): ParsianCorpusMessage[] {
  return readdirSync(CORPUS_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => checked(file.slice(0, -'.json'.length), JSON.parse(readFileSync(join(CORPUS_DIR, file), 'utf8'))));
}

/** One message by its file name; a name the corpus lacks throws. */
export function parsianCorpusMessage(name: string): ParsianCorpusMessage {
  const found = loadParsianCorpus().find((m) => m.name === name);
  if (found === undefined) throw new Error(`no ${name}.json in the parsian corpus`);
  return found;
}

export const isSoapRequest = (m: ParsianCorpusMessage): m is ParsianCorpusMessage & { message: SoapRequestMessage } => m.http.encoding === 'soap' && m.direction === 'request';
export const isSoapAnswer = (m: ParsianCorpusMessage): m is ParsianCorpusMessage & { message: SoapAnswerMessage } => m.http.encoding === 'soap' && m.direction === 'answer' && 'result' in m.message;
export const isSoapFault = (m: ParsianCorpusMessage): m is ParsianCorpusMessage & { message: SoapFaultMessage } => m.http.encoding === 'soap' && 'faultcode' in m.message;
export const isReturn = (m: ParsianCorpusMessage): m is ParsianCorpusMessage & { message: Record<string, string> } => m.direction === 'return' && m.http.encoding === 'form';
