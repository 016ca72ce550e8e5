/**
 * Asan Pardakht's conformance corpus (test/fixtures/psps/asanpardakht/, docs/psps/asanpardakht.md):
 * every message of its REST IPG as independent public integrations show it, one JSON file a message,
 * each with its sources. The connector's unit tests and the simulator's shape test read Asan
 * Pardakht's messages from here, never from our simulator. The file's shape is the one every PSP's
 * corpus has (psp, operation, direction, http, message, outcome, sources, disagreements), with the
 * HTTP `status` of an answer, Asan Pardakht's result code: a JSON request holds its headers and body
 * (or its query), an answer its status and body (null: empty), the page its form fields, a return
 * the fields its query carries.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CorpusSource {
  repo: string;
  path: string;
  note: string;
}

export interface JsonRequestMessage {
  headers: Record<string, string>;
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  /** The body's fields every reference sends. */
  required?: string[];
}

export interface JsonAnswerMessage {
  status: number;
  body: unknown;
}

export interface AsanpardakhtCorpusMessage {
  /** The file's name without `.json`. */
  name: string;
  psp: 'asanpardakht';
  /** token, page, return, lookup (TranResult), confirm, settle, reverse (Reverse and Cancel), or `any`. */
  operation: string;
  direction: 'request' | 'answer' | 'redirect' | 'return';
  http: { method: 'GET' | 'POST'; path: string; encoding: 'json' | 'form' | 'query' };
  message: JsonRequestMessage | JsonAnswerMessage | Record<string, string>;
  /**
   * What the message means to the connector: `request`; a token's `token`/`refused`; TranResult's
   * `found`/`refused`; a verify's `confirmed`/`in_progress`/`refused`; settle and reverse
   * `done`/`refused`, Reverse's `use_cancel`; a return's state (OK); `page`; `unavailable`.
   */
  outcome: string;
  /** The answer's HTTP status: Asan Pardakht's result code. */
  status?: number;
  sources: CorpusSource[];
  disagreements: string;
}

const DIRECTIONS = new Set(['request', 'answer', 'redirect', 'return']);
export const CORPUS_DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'psps', 'asanpardakht');

/** A corpus file checked for the corpus's own shape: a malformed file fails every test that loads it. */
function checked(name: string, raw: unknown): AsanpardakhtCorpusMessage {
  const doc = raw as Partial<AsanpardakhtCorpusMessage>;
  const where = `corpus file asanpardakht/${name}.json`;
  if (doc.psp !== 'asanpardakht' || typeof doc.operation !== 'string' || typeof doc.outcome !== 'string')
    throw new Error(`${where}: psp asanpardakht, operation and outcome are strings`);
  if (!DIRECTIONS.has(String(doc.direction)))
    throw new Error(`${where}: direction is one of ${[...DIRECTIONS].join(', ')}`);
  if (
    doc.http === undefined ||
    !['json', 'form', 'query'].includes(doc.http.encoding) ||
    (doc.http.method !== 'GET' && doc.http.method !== 'POST')
  )
    throw new Error(`${where}: http {method, path, encoding json|form|query}`);
  if (doc.message === undefined || typeof doc.message !== 'object' || doc.message === null)
    throw new Error(`${where}: no message`);
  if (
    doc.direction === 'answer' &&
    (typeof doc.status !== 'number' || (doc.message as JsonAnswerMessage).status !== doc.status)
  )
    throw new Error(`${where}: an answer has its status, the message's`);
  if (!Array.isArray(doc.sources) || doc.sources.length < 2)
    throw new Error(`${where}: a corpus message cites at least two sources`);
  for (const source of doc.sources) {
    if (
      !/^[^/\s]+\/[^/\s]+$/.test(source.repo) ||
      typeof source.path !== 'string' ||
      typeof source.note !== 'string' ||
      source.note === ''
    )
      throw new Error(`${where}: a source is {repo: owner/name, path, note}`);
  }
  if (new Set(doc.sources.map((s) => s.repo)).size < 2)
    throw new Error(`${where}: its sources are of at least two repositories`);
  if (typeof doc.disagreements !== 'string' || doc.disagreements === '')
    throw new Error(`${where}: disagreements is a sentence ('None.' when there are none)`);
  return { ...(doc as Omit<AsanpardakhtCorpusMessage, 'name'>), name };
}

/** Every message of Asan Pardakht's corpus, by file name. */
export function loadAsanpardakhtCorpus(): AsanpardakhtCorpusMessage[] {
  return readdirSync(CORPUS_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => checked(file.slice(0, -'.json'.length), JSON.parse(readFileSync(join(CORPUS_DIR, file), 'utf8'))));
}

/** One message by its file name; a name the corpus lacks throws. */
export function asanpardakhtCorpusMessage(name: string): AsanpardakhtCorpusMessage {
  const found = loadAsanpardakhtCorpus().find((m) => m.name === name);
  if (found === undefined) throw new Error(`no ${name}.json in the asanpardakht corpus`);
  return found;
}

export const isJsonRequest = (
  m: AsanpardakhtCorpusMessage,
): m is AsanpardakhtCorpusMessage & { message: JsonRequestMessage } => m.direction === 'request';
export const isJsonAnswer = (
  m: AsanpardakhtCorpusMessage,
): m is AsanpardakhtCorpusMessage & { message: JsonAnswerMessage; status: number } => m.direction === 'answer';
