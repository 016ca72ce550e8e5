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
import { corpusMessage, loadCorpus, type CorpusShape, type CorpusSource } from '../../support/psp-corpus.ts';

export type { CorpusSource };

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

/** Parsian's corpus: SOAP messages and its page's, every message an object, every note a sentence. */
const PARSIAN_SHAPE: CorpusShape = { encodings: ['soap', 'form', 'query'], objectMessages: true, sentences: true };

/** Every message of Parsian's corpus, by file name. */
export function loadParsianCorpus(): ParsianCorpusMessage[] {
  return loadCorpus('parsian', PARSIAN_SHAPE) as ParsianCorpusMessage[];
}

/** One message by its file name; a name the corpus lacks throws. */
export function parsianCorpusMessage(name: string): ParsianCorpusMessage {
  return corpusMessage('parsian', name, PARSIAN_SHAPE) as ParsianCorpusMessage;
}

export const isSoapRequest = (m: ParsianCorpusMessage): m is ParsianCorpusMessage & { message: SoapRequestMessage } =>
  m.http.encoding === 'soap' && m.direction === 'request';
export const isSoapAnswer = (m: ParsianCorpusMessage): m is ParsianCorpusMessage & { message: SoapAnswerMessage } =>
  m.http.encoding === 'soap' && m.direction === 'answer' && 'result' in m.message;
export const isSoapFault = (m: ParsianCorpusMessage): m is ParsianCorpusMessage & { message: SoapFaultMessage } =>
  m.http.encoding === 'soap' && 'faultcode' in m.message;
export const isReturn = (m: ParsianCorpusMessage): m is ParsianCorpusMessage & { message: Record<string, string> } =>
  m.direction === 'return' && m.http.encoding === 'form';
