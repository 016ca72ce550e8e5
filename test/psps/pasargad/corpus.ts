/**
 * Pasargad's (PEP's) conformance corpus (test/fixtures/psps/pasargad/, docs/psps/pasargad.md): every
 * message of its REST IPG as PEP's documents and independent public integrations show it, one JSON
 * file a message, each with its sources. The connector's unit tests, the simulator's shape test and the
 * end-to-end test read PEP's messages from here, never from our simulator. The file's shape is the one
 * every PSP's corpus has (psp, operation, direction, http, message, outcome, code, sources,
 * disagreements); a JSON message (`http.encoding` `json`) holds its body (`json`), a request's field
 * order and headers, or an answer's HTTP status.
 */
import { corpusMessage, loadCorpus, type CorpusShape, type CorpusSource } from '../../support/psp-corpus.ts';

export type { CorpusSource };

export interface JsonRequestMessage {
  json: Record<string, string | number>;
  /** The body's field names in the order they are sent. */
  order: string[];
  /** What the request carries besides (the bearer token, for every call after getToken). */
  headers?: Record<string, string>;
}

export interface JsonAnswerMessage {
  status: number;
  json: Record<string, unknown> | null;
}

export interface PasargadCorpusMessage {
  /** The file's name without `.json`. */
  name: string;
  psp: 'pasargad';
  /** auth, token, page, return, inquiry, confirm, reverse, or `any` (an answer any call may get). */
  operation: string;
  direction: 'request' | 'answer' | 'redirect' | 'return';
  http: { method: 'GET' | 'POST'; path: string; encoding: 'json' | 'query' };
  message: JsonRequestMessage | JsonAnswerMessage | Record<string, string>;
  outcome: string;
  /** PEP's resultCode, or the inquiry's data.status, where the answer has one. */
  code?: number;
  sources: CorpusSource[];
  disagreements: string;
}

/** PEP's corpus: JSON bodies and its page's query fields, every message an object, every note a sentence. */
const PASARGAD_SHAPE: CorpusShape = { encodings: ['json', 'query'], objectMessages: true, sentences: true };

/** Every message of PEP's corpus, by file name. */
export function loadPasargadCorpus(): PasargadCorpusMessage[] {
  return loadCorpus('pasargad', PASARGAD_SHAPE) as PasargadCorpusMessage[];
}

/** One message by its file name; a name the corpus lacks throws. */
export function pasargadCorpusMessage(name: string): PasargadCorpusMessage {
  return corpusMessage('pasargad', name, PASARGAD_SHAPE) as PasargadCorpusMessage;
}

export const isJsonRequest = (m: PasargadCorpusMessage): m is PasargadCorpusMessage & { message: JsonRequestMessage } =>
  m.http.encoding === 'json' && m.direction === 'request';
export const isJsonAnswer = (m: PasargadCorpusMessage): m is PasargadCorpusMessage & { message: JsonAnswerMessage } =>
  m.http.encoding === 'json' && m.direction === 'answer';

/** The corpus request `name`'s body. */
export const corpusRequest = (name: string) => pasargadCorpusMessage(name).message as JsonRequestMessage;
/** The corpus answer `name`'s body and status. */
export const corpusAnswer = (name: string) => pasargadCorpusMessage(name).message as JsonAnswerMessage;
/** The corpus answer `name`'s `data` object. */
export const corpusData = (name: string) => corpusAnswer(name).json!.data as Record<string, unknown>;
/** The corpus return or redirect `name`'s fields. */
export const corpusFields = (name: string) => pasargadCorpusMessage(name).message as Record<string, string>;
