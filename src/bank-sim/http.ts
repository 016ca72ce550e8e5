/**
 * What every area of the simulator answers with, on node's plain HTTP server
 * (no framework: the bank shares nothing with the gateway): a request, its
 * route, the JSON answer, the body read with a bound.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface BankRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
}

export type Handler = (request: BankRequest) => void | Promise<void>;

/** An area of the simulator: the handler of a method and path, or undefined when the path is not the area's. */
export type Routes = (method: string, path: string) => Handler | undefined;

export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};

/**
 * The PSP's answer to a server-to-server call: its result code, and the
 * transaction's detail when there is one. 0 is done now, 2 was done before.
 */
export const answer = (res: ServerResponse, code: number, description: string, detail?: object) =>
  json(res, 200, {
    ...(detail === undefined ? {} : { TransactionDetail: detail }),
    ResultCode: code,
    ResultDescription: description,
    Success: code === 0 || code === 2,
  });

export const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 16_384) reject(new Error('too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** A JSON body; one that is not JSON throws, and the server answers 400. */
export const readJson = async (req: IncomingMessage) => JSON.parse(await readBody(req)) as Record<string, unknown>;
