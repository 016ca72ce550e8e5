/**
 * The conformance corpus of a PSP (test/fixtures/psps/<psp>/, docs/psps/<psp>.md): every message
 * of its protocol as independent public integrations show it, one JSON file a message, each with
 * its sources. The connector's unit tests, the simulator's shape test and the end-to-end test read
 * the PSP's messages from here, never from our simulator, so that the connector and the simulator
 * cannot agree on a shape the PSP does not have.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a corpus message was read: a file of a public repository, or a published document. */
export type CorpusSource = { repo: string; path: string; note: string } | { document: string; note: string };

/** One message of a PSP's protocol. */
export interface CorpusMessage {
  /** The file's name without `.json` (the message's name in tests). */
  name: string;
  psp: string;
  /** The protocol's operation: token, page, return, verify, reverse, … */
  operation: string;
  /** `request`: we send it; `answer`: the PSP answers it; `redirect`: the customer's way to the page; `return`: the page's way back to us. */
  direction: 'request' | 'answer' | 'redirect' | 'return';
  http: { method: 'GET' | 'POST'; path: string; encoding: string };
  /** The message itself, as its sources show it (JSON body, form or query fields, or a bare value). */
  message: unknown;
  /** What the message means: the return's state, `confirmed`/`refused` of a verify, `reversed`/`refused`, `token`/`refused`. */
  outcome: string;
  /** The PSP's code, where the message is a refusal. */
  code?: number;
  sources: CorpusSource[];
  /** Where the sources differ, and what Dargah does about it. */
  disagreements: string;
}

const DIRECTIONS = new Set(['request', 'answer', 'redirect', 'return']);

/** What a PSP's corpus files may hold beyond the shape every corpus has. */
export interface CorpusShape {
  /** The `http.encoding`s its messages have (SEP's: json, form, query; a SOAP PSP's: soap and its page's). */
  encodings: readonly string[];
  /** Every message is an object (a SOAP PSP's parameters or answer, a form's fields), never a bare value. */
  objectMessages: boolean;
  /** Every source's note and the disagreements are sentences, never empty. */
  sentences: boolean;
}

/** SEP's corpus, the first: JSON bodies, some answers a bare value. */
const SEP_SHAPE: CorpusShape = { encodings: ['json', 'form', 'query'], objectMessages: false, sentences: false };

/** A corpus file checked for the corpus's own shape: a malformed file fails every test that loads it. */
function checked(psp: string, shape: CorpusShape, name: string, raw: unknown): CorpusMessage {
  const doc = raw as Partial<CorpusMessage>;
  const where = `corpus file ${psp}/${name}.json`;
  if (doc.psp !== psp || typeof doc.operation !== 'string' || typeof doc.outcome !== 'string')
    throw new Error(`${where}: psp ${psp}, operation and outcome are strings`);
  if (!DIRECTIONS.has(String(doc.direction)))
    throw new Error(`${where}: direction is one of ${[...DIRECTIONS].join(', ')}`);
  if (
    doc.http === undefined ||
    !shape.encodings.includes(doc.http.encoding) ||
    (doc.http.method !== 'GET' && doc.http.method !== 'POST')
  ) {
    throw new Error(`${where}: http {method, path, encoding ${shape.encodings.join('|')}}`);
  }
  if (!('message' in doc) || (shape.objectMessages && (typeof doc.message !== 'object' || doc.message === null)))
    throw new Error(`${where}: no message`);
  if (!Array.isArray(doc.sources) || doc.sources.length === 0)
    throw new Error(`${where}: a message without a source is no corpus message`);
  const sentence = (text: unknown) => typeof text === 'string' && (!shape.sentences || text !== '');
  for (const source of doc.sources) {
    const ok =
      ('repo' in source && /^[^/\s]+\/[^/\s]+$/.test(source.repo) && typeof source.path === 'string') ||
      ('document' in source && typeof source.document === 'string');
    if (!ok || !sentence(source.note))
      throw new Error(`${where}: a source is {repo: owner/name, path, note} or {document, note}`);
  }
  if (!sentence(doc.disagreements))
    throw new Error(`${where}: disagreements is a sentence ('None.' when there are none)`);
  return { ...(doc as Omit<CorpusMessage, 'name'>), name };
}

/** Every message of `psp`'s corpus, by file name, each checked for `shape`. */
export function loadCorpus(psp: string, shape: CorpusShape = SEP_SHAPE): CorpusMessage[] {
  const dir = join(import.meta.dirname, '..', 'fixtures', 'psps', psp);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) =>
      checked(psp, shape, file.slice(0, -'.json'.length), JSON.parse(readFileSync(join(dir, file), 'utf8'))),
    );
}

/** One message of `psp`'s corpus by its file name; a name the corpus lacks throws. */
export function corpusMessage(psp: string, name: string, shape: CorpusShape = SEP_SHAPE): CorpusMessage {
  const found = loadCorpus(psp, shape).find((m) => m.name === name);
  if (found === undefined) throw new Error(`no ${name}.json in the ${psp} corpus`);
  return found;
}

/** A corpus message's fields as strings, as a form or a query carries them. */
export function corpusFields(message: CorpusMessage): Record<string, string> {
  const fields = message.message as Record<string, unknown>;
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
}
