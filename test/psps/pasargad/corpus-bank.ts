/**
 * A loopback stand-in for PEP (Pasargad Electronic Payment) that answers from the conformance corpus
 * (test/fixtures/psps/pasargad/): it records every call it receives (path, headers, JSON body) and
 * answers each path with the corpus answers a test queued for it, in order (the last one again once
 * the queue is down to it), the JSON as the corpus file holds it, changed only where a test says so
 * (the payment's own invoice, which PEP echoes). Nothing of our simulator answers here: what the
 * connector gets is what the corpus says PEP sends.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { corpusAnswer, type JsonAnswerMessage } from './corpus.ts';

export interface ReceivedCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown> | undefined;
}

type Change = (json: Record<string, unknown>) => Record<string, unknown>;

/** A corpus answer's JSON with `change` applied to a deep copy. */
export function changedAnswer(name: string, change?: Change): JsonAnswerMessage {
  const answer = corpusAnswer(name);
  if (change === undefined || answer.json === null) return answer;
  return { ...answer, json: change(structuredClone(answer.json)) };
}

export class PasargadCorpusBank {
  readonly received: ReceivedCall[] = [];
  private readonly answers = new Map<string, JsonAnswerMessage[]>();
  private server: Server | undefined;
  url = '';

  /** Answers `path` with the corpus answer `name` (changed by `change`) after those queued before. */
  answer(path: string, name: string, change?: Change): this {
    const queue = this.answers.get(path) ?? [];
    queue.push(changedAnswer(name, change));
    this.answers.set(path, queue);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(body) as Record<string, unknown>;
        } catch {
          json = undefined;
        }
        const path = new URL(req.url ?? '/', 'http://bank').pathname;
        this.received.push({ path, headers: req.headers, body, json });
        const queue = this.answers.get(path);
        const answer = queue === undefined ? undefined : queue.length > 1 ? queue.shift() : queue[0];
        if (answer === undefined) return void res.writeHead(404).end();
        res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(answer.json === null ? '' : JSON.stringify(answer.json));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
  }

  /** The calls of one path, in the order they came. */
  callsTo(path: string): ReceivedCall[] {
    return this.received.filter((c) => c.path === path);
  }
}
