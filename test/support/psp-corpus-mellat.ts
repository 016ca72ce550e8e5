/**
 * Behpardakht Mellat's conformance corpus (test/fixtures/psps/mellat/, docs/psps/mellat.md): every
 * message of its protocol as independent public integrations show it, one JSON file a message, each
 * with its sources. The connector's unit tests, the simulator's shape test and the end-to-end test
 * read Behpardakht's messages from here, never from our simulator, so the connector and the simulator
 * cannot agree on a shape Behpardakht does not have. The file's shape is the one every PSP's corpus
 * has (psp, operation, direction, http, message, outcome, code, sources, disagreements); a SOAP
 * message (`http.encoding` `soap`) holds its operation, its parameters (and their order) or its
 * `return`, and the envelope's text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a corpus message was read: a file of a public repository, or a published document. */
export type CorpusSource = { repo: string; path: string; note: string } | { document: string; note: string };

export interface SoapRequestMessage {
  soapOperation: string;
  parameters: Record<string, string>;
  /** The parameters' names in the order they are sent. */
  order: string[];
  envelope: string;
}

export interface SoapAnswerMessage {
  soapOperation: string;
  /** The answer's one value, as Behpardakht writes it: "0,RefId", or a code alone. */
  return: string;
  envelope: string;
}

export interface SoapFaultMessage {
  faultcode: string;
  faultstring: string;
  envelope: string;
  status: number;
}

export interface MellatCorpusMessage {
  /** The file's name without `.json`. */
  name: string;
  psp: 'mellat';
  /** token, page, return, confirm, settle, reverse, inquire, refund, or `any` (a fault any call may get). */
  operation: string;
  direction: 'request' | 'answer' | 'redirect' | 'return';
  http: { method: 'GET' | 'POST'; path: string; encoding: 'soap' | 'form' };
  message: SoapRequestMessage | SoapAnswerMessage | SoapFaultMessage | Record<string, string>;
  /**
   * What the message means to the connector: `request`; a token's `token`/`refused`; a verify's
   * `confirmed`/`refused`; settle, reverse and refund `done`/`refused`; an inquiry's standing; a
   * return's state (OK, CanceledByUser, Failed); `page`; `unavailable` (a fault).
   */
  outcome: string;
  /** Behpardakht's result code, where the answer is one. */
  code?: number;
  sources: CorpusSource[];
  /** Where the sources differ, and what Dargah does about it. */
  disagreements: string;
}

const DIRECTIONS = new Set(['request', 'answer', 'redirect', 'return']);
export const CORPUS_DIR = join(import.meta.dirname, '..', 'fixtures', 'psps', 'mellat');

/** A corpus file checked for the corpus's own shape: a malformed file fails every test that loads it. */
function checked(name: string, raw: unknown): MellatCorpusMessage {
  const doc = raw as Partial<MellatCorpusMessage>;
  const where = `corpus file mellat/${name}.json`;
  if (doc.psp !== 'mellat' || typeof doc.operation !== 'string' || typeof doc.outcome !== 'string') throw new Error(`${where}: psp mellat, operation and outcome are strings`);
  if (!DIRECTIONS.has(String(doc.direction))) throw new Error(`${where}: direction is one of ${[...DIRECTIONS].join(', ')}`);
  if (doc.http === undefined || (doc.http.encoding !== 'soap' && doc.http.encoding !== 'form') || (doc.http.method !== 'GET' && doc.http.method !== 'POST')) throw new Error(`${where}: http {method, path, encoding soap|form}`);
  if (doc.message === undefined || typeof doc.message !== 'object') throw new Error(`${where}: no message`);
  if (!Array.isArray(doc.sources) || doc.sources.length === 0) throw new Error(`${where}: a message without a source is no corpus message`);
  for (const source of doc.sources) {
    const ok = ('repo' in source && /^[^/\s]+\/[^/\s]+$/.test(source.repo) && typeof source.path === 'string') || ('document' in source && typeof source.document === 'string');
    if (!ok || typeof source.note !== 'string' || source.note === '') throw new Error(`${where}: a source is {repo: owner/name, path, note} or {document, note}`);
  }
  if (typeof doc.disagreements !== 'string' || doc.disagreements === '') throw new Error(`${where}: disagreements is a sentence ('None.' when there are none)`);
  return { ...(doc as Omit<MellatCorpusMessage, 'name'>), name };
}

/** Every message of Mellat's corpus, by file name. */
export function loadMellatCorpus(): MellatCorpusMessage[] {
  return readdirSync(CORPUS_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => checked(file.slice(0, -'.json'.length), JSON.parse(readFileSync(join(CORPUS_DIR, file), 'utf8'))));
}

/** One message by its file name; a name the corpus lacks throws. */
export function mellatCorpusMessage(name: string): MellatCorpusMessage {
  const found = loadMellatCorpus().find((m) => m.name === name);
  if (found === undefined) throw new Error(`no ${name}.json in the mellat corpus`);
  return found;
}

export const isSoapRequest = (m: MellatCorpusMessage): m is MellatCorpusMessage & { message: SoapRequestMessage } => m.http.encoding === 'soap' && m.direction === 'request';
export const isSoapAnswer = (m: MellatCorpusMessage): m is MellatCorpusMessage & { message: SoapAnswerMessage } => m.http.encoding === 'soap' && m.direction === 'answer' && 'return' in m.message;
export const isSoapFault = (m: MellatCorpusMessage): m is MellatCorpusMessage & { message: SoapFaultMessage } => m.http.encoding === 'soap' && 'faultcode' in m.message;
export const isFormMessage = (m: MellatCorpusMessage): m is MellatCorpusMessage & { message: Record<string, string> } => m.http.encoding === 'form';
