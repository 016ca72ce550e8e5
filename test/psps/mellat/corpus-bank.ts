/**
 * A loopback stand-in for Behpardakht that answers from the conformance corpus: it serves the
 * published WSDL pair (the service document and the IPaymentGateway document it imports, as the
 * simulator writes them from the published names), records every SOAP call it receives (operation,
 * parameters in order, the X-Operation-Key header), and answers each operation with the corpus
 * answer a test chose for it, its envelope sent as the corpus file holds it. Nothing of our simulator
 * answers here: what the connector gets is what the corpus says Behpardakht sends.
 */
import { createServer, type Server } from 'node:http';
import {
  MELLAT_INTERFACE_QUERY,
  mellatInterfaceWsdl,
  mellatServiceWsdl,
} from '../../../src/psps/mellat/simulator-wsdl.ts';
import { readSoapCall, type SoapCall } from '../../../src/bank-sim/soap-envelope.ts';
import { mellatCorpusMessage, type SoapAnswerMessage, type SoapFaultMessage } from './corpus.ts';

export const SERVICE_PATH = '/pgwchannel/services/pgw';

export interface RecordedCall extends SoapCall {
  operationKey: string;
  body: string;
}

export class CorpusBank {
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
      if (url.pathname !== SERVICE_PATH) return send(404, '');
      if (req.method === 'GET') {
        if (url.search === `?${MELLAT_INTERFACE_QUERY}`) return send(200, mellatInterfaceWsdl());
        return send(200, mellatServiceWsdl(`${this.url}${SERVICE_PATH}`));
      }
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const call = readSoapCall(body);
        if (call === undefined) return send(500, '');
        this.calls.push({ ...call, operationKey: String(req.headers['x-operation-key'] ?? ''), body });
        const file = this.answers.get(call.operation);
        if (file === undefined) return send(500, '');
        const message = mellatCorpusMessage(file).message as SoapAnswerMessage | SoapFaultMessage;
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
