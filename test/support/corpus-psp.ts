/**
 * A PSP on loopback that answers from its conformance corpus (test/support/psp-corpus.ts): each path
 * answers what the test chose, a corpus message as its file shows it, and every request is recorded
 * (path, headers, parsed body) so that a test holds what the connector sent against the corpus's
 * requests. No PSP logic of its own: the point is that nothing here was written with the connector.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  contentType: string;
  /** The body as JSON, or a form's fields; the raw text when it is neither. */
  body: unknown;
}

/** What a path answers: a JSON value (a corpus message), or a status with no body worth reading. */
export type CorpusAnswer = { json: unknown } | { status: number };

export class CorpusPsp {
  readonly requests: RecordedRequest[] = [];
  /** Path → how it answers the request; a path without one answers 404, as a PSP answers a call it does not have. */
  readonly answers = new Map<string, (request: RecordedRequest) => CorpusAnswer>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const contentType = req.headers['content-type'] ?? '';
        let body: unknown = text;
        try {
          body = /json/.test(contentType)
            ? JSON.parse(text)
            : /form-urlencoded/.test(contentType)
              ? Object.fromEntries(new URLSearchParams(text))
              : text;
        } catch {
          body = text;
        }
        const url = new URL(req.url ?? '/', 'http://psp');
        const request: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, contentType, body };
        this.requests.push(request);
        const answer = this.answers.get(url.pathname)?.(request) ?? { status: 404 };
        if ('json' in answer) {
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify(answer.json));
        } else {
          res.writeHead(answer.status, { 'content-type': 'text/plain' });
          res.end('');
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The recorded requests to `path`. */
  to(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
  }
}
