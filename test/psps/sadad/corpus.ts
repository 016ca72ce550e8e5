/**
 * Sadad's (Bank Melli Iran's) conformance corpus (test/fixtures/psps/sadad/, docs/psps/sadad.md):
 * every message of its IPG as independent public integrations show it, one JSON file a message, each
 * with its sources. The connector's unit tests and the simulator's shape test read Sadad's messages
 * from here, never from our simulator. The file's shape is the one every PSP's corpus has (psp,
 * operation, direction, http, message, outcome, code, sources, disagreements); a JSON message
 * (`http.encoding` `json`) holds its body (`json`), a request's field order and what its SignData
 * signs, or an answer's HTTP status.
 */
import { corpusMessage, loadCorpus, type CorpusShape, type CorpusSource } from '../../support/psp-corpus.ts';

export type { CorpusSource };

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

/** Sadad's corpus: JSON bodies and its page's fields, every message an object, every note a sentence. */
const SADAD_SHAPE: CorpusShape = { encodings: ['json', 'form', 'query'], objectMessages: true, sentences: true };

/** Every message of Sadad's corpus, by file name. */
export function loadSadadCorpus(): SadadCorpusMessage[] {
  return loadCorpus('sadad', SADAD_SHAPE) as SadadCorpusMessage[];
}

/** One message by its file name; a name the corpus lacks throws. */
export function sadadCorpusMessage(name: string): SadadCorpusMessage {
  return corpusMessage('sadad', name, SADAD_SHAPE) as SadadCorpusMessage;
}

export const isJsonRequest = (m: SadadCorpusMessage): m is SadadCorpusMessage & { message: JsonRequestMessage } =>
  m.http.encoding === 'json' && m.direction === 'request';
export const isJsonAnswer = (m: SadadCorpusMessage): m is SadadCorpusMessage & { message: JsonAnswerMessage } =>
  m.http.encoding === 'json' && m.direction === 'answer';
export const isFieldsMessage = (m: SadadCorpusMessage): m is SadadCorpusMessage & { message: Record<string, string> } =>
  m.http.encoding === 'form' || m.http.encoding === 'query';

/** The corpus request `name`'s body. */
export const corpusRequest = (name: string) => sadadCorpusMessage(name).message as JsonRequestMessage;
/** The corpus answer `name`'s body and status. */
export const corpusAnswer = (name: string) => sadadCorpusMessage(name).message as JsonAnswerMessage;
/** The corpus return or redirect `name`'s fields. */
export const corpusFields = (name: string) => sadadCorpusMessage(name).message as Record<string, string>;
