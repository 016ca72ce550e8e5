/**
 * A loopback stand-in for PEC that answers from the conformance corpus: it serves each of the three
 * services' WSDL (as the simulator writes them from the published contracts), records every SOAP call
 * it receives (operation, namespace, requestData's fields in order, the X-Operation-Key header), and
 * answers each operation with the corpus answer a test chose for it, its envelope sent as the corpus
 * file holds it. Nothing of our simulator answers here: what the connector gets is what the corpus
 * says PEC sends.
 */
import { createServer, type Server } from 'node:http';
import { PARSIAN_SERVICES, parsianWsdl } from '../../../src/psps/parsian/simulator-wsdl.ts';
import { readSoapCall, type SoapCall } from '../../../src/bank-sim/soap-envelope.ts';
import { parsianCorpusMessage, type SoapAnswerMessage, type SoapFaultMessage } from './corpus.ts';

export interface RecordedCall extends SoapCall {
  path: string;
  operationKey: string;
  body: string;
}

export class ParsianCorpusBank {
  readonly calls: RecordedCall[] = [];
  /** SOAP operation → the corpus file answering it (an answer or a fault). */
  private readonly answers = new Map<string, string>();
  private server: Server | undefined;
  url = '';

  /** Answers `soapOperation` with the corpus message `file` from now on. */
  answer(soapOperation: string, file: string): this {
    this.answers.set(soapOperation, file);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://bank');
      const send = (status: number, xml: string) =>
        res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8' }).end(xml);
      const service = PARSIAN_SERVICES.find((s) => s.path === url.pathname);
      if (service === undefined) return send(404, '');
      if (req.method === 'GET') return send(200, parsianWsdl(service, `${this.url}${service.path}`));
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const call = readSoapCall(body);
        if (call === undefined) return send(500, '');
        this.calls.push({
          ...call,
          path: url.pathname,
          operationKey: String(req.headers['x-operation-key'] ?? ''),
          body,
        });
        const file = this.answers.get(call.operation);
        if (file === undefined) return send(500, '');
        const message = parsianCorpusMessage(file).message as SoapAnswerMessage | SoapFaultMessage;
        send('status' in message ? message.status : 200, message.envelope);
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

  /** The calls of one SOAP operation, in the order they came. */
  callsOf(soapOperation: string): RecordedCall[] {
    return this.calls.filter((c) => c.operation === soapOperation);
  }
}
