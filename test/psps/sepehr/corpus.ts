/**
 * Sepehr's (Bank Saderat's) conformance corpus (test/fixtures/psps/sepehr/, docs/psps/sepehr.md):
 * every message of its IPG as independent public integrations show it, one JSON file a message, each
 * with its sources. The connector's unit tests, the simulator's shape test and the end-to-end test read
 * Sepehr's messages from here, never from our simulator. The file's shape is the one every PSP's corpus
 * has (psp, operation, direction, http, message, outcome, code, sources, disagreements); a JSON message
 * (`http.encoding` `json`) holds its body (`json`) and a request's field order, or an answer's HTTP status.
 */
import { corpusMessage, loadCorpus, type CorpusShape, type CorpusSource } from '../../support/psp-corpus.ts';

export type { CorpusSource };

export interface JsonRequestMessage {
  json: Record<string, string | number>;
  /** The body's field names in the order they are sent. */
  order: string[];
}

export interface JsonAnswerMessage {
  status: number;
  json: Record<string, string | number | null> | null;
}

export interface SepehrCorpusMessage {
  /** The file's name without `.json`. */
  name: string;
  psp: 'sepehr';
  /** token, page, return, confirm, reverse, or `any` (an answer any call may get). */
  operation: string;
  direction: 'request' | 'answer' | 'redirect' | 'return';
  http: { method: 'GET' | 'POST'; path: string; encoding: 'json' | 'form' };
  message: JsonRequestMessage | JsonAnswerMessage | Record<string, string>;
  /** `request`; a token's `token`/`refused`; a verify's `confirmed`/`refused`; a reversal's `done`/`refused`; a return's state; `page`; `unavailable`. */
  outcome: string;
  /** Sepehr's code (a token's Status, a return's respcode, a NOK's ReturnId), where the message has one. */
  code?: number;
  sources: CorpusSource[];
  disagreements: string;
}

/** Sepehr's corpus: JSON bodies and form fields, every message an object, every note a sentence. */
const SEPEHR_SHAPE: CorpusShape = { encodings: ['json', 'form'], objectMessages: true, sentences: true };

/** Every message of Sepehr's corpus, by file name. */
export function loadSepehrCorpus(): SepehrCorpusMessage[] {
  return loadCorpus('sepehr', SEPEHR_SHAPE) as SepehrCorpusMessage[];
}

/** One message by its file name; a name the corpus lacks throws. */
export function sepehrCorpusMessage(name: string): SepehrCorpusMessage {
  return corpusMessage('sepehr', name, SEPEHR_SHAPE) as SepehrCorpusMessage;
}

export const isJsonRequest = (m: SepehrCorpusMessage): m is SepehrCorpusMessage & { message: JsonRequestMessage } =>
  m.http.encoding === 'json' && m.direction === 'request';
export const isJsonAnswer = (m: SepehrCorpusMessage): m is SepehrCorpusMessage & { message: JsonAnswerMessage } =>
  m.http.encoding === 'json' && m.direction === 'answer';
export const isFieldsMessage = (
  m: SepehrCorpusMessage,
): m is SepehrCorpusMessage & { message: Record<string, string> } => m.http.encoding === 'form';

/** The corpus request `name`'s body and field order. */
export const corpusRequest = (name: string) => sepehrCorpusMessage(name).message as JsonRequestMessage;
/** The corpus answer `name`'s body and status. */
export const corpusAnswer = (name: string) => sepehrCorpusMessage(name).message as JsonAnswerMessage;
/** The corpus return or redirect `name`'s fields. */
export const corpusFields = (name: string) => sepehrCorpusMessage(name).message as Record<string, string>;
