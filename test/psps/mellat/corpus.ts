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
import { corpusMessage, loadCorpus, type CorpusShape, type CorpusSource } from '../../support/psp-corpus.ts';

export type { CorpusSource };

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

/** Mellat's corpus: SOAP messages and its page's, every message an object, every note a sentence. */
const MELLAT_SHAPE: CorpusShape = { encodings: ['soap', 'form'], objectMessages: true, sentences: true };

/** Every message of Mellat's corpus, by file name. */
export function loadMellatCorpus(): MellatCorpusMessage[] {
  return loadCorpus('mellat', MELLAT_SHAPE) as MellatCorpusMessage[];
}

/** One message by its file name; a name the corpus lacks throws. */
export function mellatCorpusMessage(name: string): MellatCorpusMessage {
  return corpusMessage('mellat', name, MELLAT_SHAPE) as MellatCorpusMessage;
}

export const isSoapRequest = (m: MellatCorpusMessage): m is MellatCorpusMessage & { message: SoapRequestMessage } =>
  m.http.encoding === 'soap' && m.direction === 'request';
export const isSoapAnswer = (m: MellatCorpusMessage): m is MellatCorpusMessage & { message: SoapAnswerMessage } =>
  m.http.encoding === 'soap' && m.direction === 'answer' && 'return' in m.message;
export const isSoapFault = (m: MellatCorpusMessage): m is MellatCorpusMessage & { message: SoapFaultMessage } =>
  m.http.encoding === 'soap' && 'faultcode' in m.message;
export const isFormMessage = (m: MellatCorpusMessage): m is MellatCorpusMessage & { message: Record<string, string> } =>
  m.http.encoding === 'form';
