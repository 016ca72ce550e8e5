/**
 * IranKish's conformance corpus (test/fixtures/psps/irankish/, docs/psps/irankish.md): every message
 * of its api/v3 IPG as independent public integrations show it, one JSON file a message, each with
 * its sources. The connector's unit tests, the simulator's shape test and the end-to-end test read
 * IranKish's messages from here, never from our simulator. The file's shape is the one every PSP's
 * corpus has (psp, operation, direction, http, message, outcome, code, sources, disagreements); a JSON
 * request holds its body (`json`) and its keys' order, the token request also what its
 * authenticationEnvelope seals; a JSON answer holds its HTTP status and body.
 */
import { corpusMessage, loadCorpus, type CorpusShape, type CorpusSource } from '../../support/psp-corpus.ts';

export type { CorpusSource };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What the token request's authenticationEnvelope seals (token-request.json). */
export interface CorpusEnvelope {
  /** The (test) password of the terminal. */
  password: string;
  /** The hex text sealed: terminalId + password + the amount in twelve digits + "00". */
  text: string;
  algorithm: string;
  publicKey: string;
}

export interface JsonRequestMessage {
  json: Record<string, Json>;
  /** The body's keys in the order they are sent. */
  order: string[];
  /** The token request's `request` keys in the order they are sent. */
  requestOrder?: string[];
  envelope?: CorpusEnvelope;
}

export interface JsonAnswerMessage {
  status: number;
  json: Record<string, Json>;
}

export interface IrankishCorpusMessage {
  /** The file's name without `.json`. */
  name: string;
  psp: 'irankish';
  /** token, page, return, confirm, reverse. */
  operation: string;
  direction: 'request' | 'answer' | 'redirect' | 'return';
  http: { method: 'GET' | 'POST'; path: string; encoding: 'json' | 'form' };
  message: JsonRequestMessage | JsonAnswerMessage | Record<string, string>;
  /** `request`; a token's `token`/`refused`; a confirmation's `confirmed`/`refused`; a reversal's `done`; a return's state; `page`. */
  outcome: string;
  /** IranKish's response code, where the answer has one. */
  code?: number;
  sources: CorpusSource[];
  disagreements: string;
}

/** IranKish's corpus: JSON bodies and its page's form fields, every message an object, every note a sentence. */
const IRANKISH_SHAPE: CorpusShape = { encodings: ['json', 'form'], objectMessages: true, sentences: true };

/** Every message of IranKish's corpus, by file name. */
export function loadIrankishCorpus(): IrankishCorpusMessage[] {
  return loadCorpus('irankish', IRANKISH_SHAPE) as IrankishCorpusMessage[];
}

/** One message by its file name; a name the corpus lacks throws. */
export function irankishCorpusMessage(name: string): IrankishCorpusMessage {
  return corpusMessage('irankish', name, IRANKISH_SHAPE) as IrankishCorpusMessage;
}

/** The corpus request `name`'s body. */
export const corpusRequest = (name: string) => irankishCorpusMessage(name).message as JsonRequestMessage;
/** The corpus answer `name`'s body and status. */
export const corpusAnswer = (name: string) => irankishCorpusMessage(name).message as JsonAnswerMessage;
/** The corpus return or redirect `name`'s fields. */
export const corpusFields = (name: string) => irankishCorpusMessage(name).message as Record<string, string>;
