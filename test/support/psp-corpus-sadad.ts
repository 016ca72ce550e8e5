/**
 * Sadad's (Bank Melli Iran's) conformance corpus (test/fixtures/psps/sadad/, docs/psps/sadad.md):
 * every message of its IPG as independent public integrations show it, one JSON file a message, each
 * with its sources. The connector's unit tests and the simulator's shape test read Sadad's messages
 * from here, never from our simulator. The file's shape is the one every PSP's corpus has (psp,
 * operation, direction, http, message, outcome, code, sources, disagreements); a JSON message
 * (`http.encoding` `json`) holds its body (`json`), a request's field order and what its SignData
 * signs, or an answer's HTTP status.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a corpus message was read: a file of a public repository. */
export interface CorpusSource {
  repo: string;
  path: string;
  note: string;
}

/** What a request's SignData signs: the text, the (test) terminal key in base64, and how. */
export interface CorpusSignature {
  field: 'SignData';
  text: string;
  key: string;
  algorithm: string;
}

export interface JsonRequestMessage {
  json: Record<string, string | number>;
  /** The body's field names in the order they are sent. */
  order: string[];
  signature: CorpusSignature;
}

export interface JsonAnswerMessage {
  status: number;
  json: Record<string, string | number | null> | null;
}

export interface SadadCorpusMessage {
  /** The file's name without `.json`. */
  name: string;
  psp: 'sadad';
  /** token, page, return, confirm, or `any` (an answer any call may get). */
  operation: string;
  direction: 'request' | 'answer' | 'redirect' | 'return';
  http: { method: 'GET' | 'POST'; path: string; encoding: 'json' | 'form' | 'query' };
  message: JsonRequestMessage | JsonAnswerMessage | Record<string, string>;
  /** `request`; a token's `token`/`refused`; a verify's `confirmed`/`refused`; a return's state; `page`; `unavailable`. */
  outcome: string;
  /** Sadad's ResCode, where the answer has one. */
  code?: number;
  sources: CorpusSource[];
  disagreements: string;
}

const DIRECTIONS = new Set(['request', 'answer', 'redirect', 'return']);
const ENCODINGS = new Set(['json', 'form', 'query']);
export const SADAD_CORPUS_DIR = join(import.meta.dirname, '..', 'fixtures', 'psps', 'sadad');

/** A corpus file checked for the corpus's own shape: a malformed file fails every test that loads it. */
function checked(name: string, raw: unknown): SadadCorpusMessage {
  const doc = raw as Partial<SadadCorpusMessage>;
  const where = `corpus file sadad/${name}.json`;
  if (doc.psp !== 'sadad' || typeof doc.operation !== 'string' || typeof doc.outcome !== 'string') throw new Error(`${where}: psp sadad, operation and outcome are strings`);
  if (!DIRECTIONS.has(String(doc.direction))) throw new Error(`${where}: direction is one of ${[...DIRECTIONS].join(', ')}`);
  if (doc.http === undefined || !ENCODINGS.has(doc.http.encoding) || (doc.http.method !== 'GET' && doc.http.method !== 'POST')) throw new Error(`${where}: http {method, path, encoding json|form|query}`);
  if (doc.message === undefined || typeof doc.message !== 'object' || doc.message === null) throw new Error(`${where}: no message`);
  if (!Array.isArray(doc.sources) || doc.sources.length === 0) throw new Error(`${where}: a message without a source is no corpus message`);
  for (const source of doc.sources) {
    if (!/^[^/\s]+\/[^/\s]+$/.test(source.repo) || typeof source.path !== 'string' || typeof source.note !== 'string' || source.note === '') throw new Error(`${where}: a source is {repo: owner/name, path, note}`);
  }
  if (typeof doc.disagreements !== 'string' || doc.disagreements === '') throw new Error(`${where}: disagreements is a sentence ('None.' when there are none)`);
  return { ...(doc as Omit<SadadCorpusMessage, 'name'>), name };
}

/** Every message of Sadad's corpus, by file name. */
export function loadSadadCorpus(): SadadCorpusMessage[] {
  return readdirSync(SADAD_CORPUS_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => checked(file.slice(0, -'.json'.length), JSON.parse(readFileSync(join(SADAD_CORPUS_DIR, file), 'utf8'))));
}

/** One message by its file name; a name the corpus lacks throws. */
export function sadadCorpusMessage(name: string): SadadCorpusMessage {
  const found = loadSadadCorpus().find((m) => m.name === name);
  if (found === undefined) throw new Error(`no ${name}.json in the sadad corpus`);
  return found;
}

export const isJsonRequest = (m: SadadCorpusMessage): m is SadadCorpusMessage & { message: JsonRequestMessage } => m.http.encoding === 'json' && m.direction === 'request';
export const isJsonAnswer = (m: SadadCorpusMessage): m is SadadCorpusMessage & { message: JsonAnswerMessage } => m.http.encoding === 'json' && m.direction === 'answer';
export const isFieldsMessage = (m: SadadCorpusMessage): m is SadadCorpusMessage & { message: Record<string, string> } => m.http.encoding === 'form' || m.http.encoding === 'query';

/** The corpus request `name`'s body. */
export const corpusRequest = (name: string) => (sadadCorpusMessage(name).message as JsonRequestMessage);
/** The corpus answer `name`'s body and status. */
export const corpusAnswer = (name: string) => (sadadCorpusMessage(name).message as JsonAnswerMessage);
/** The corpus return or redirect `name`'s fields. */
export const corpusFields = (name: string) => (sadadCorpusMessage(name).message as Record<string, string>);
