/**
 * The SOAP 1.1 envelopes of Behpardakht's document/literal service, read and written by hand (the
 * simulator's side of mellat.ts): a call is the body's one element, named for the operation and in
 * the interface namespace, whose children are the parameters, unqualified, each a text; an answer is
 * `<{op}Response>` in the same namespace with one child, `return`, a string; a failure is a SOAP
 * Fault. Reading by hand keeps the simulator's view of a message the message itself, in the order it
 * came, so a test can hold it against the conformance corpus. Pure code.
 */

export interface SoapCall {
  operation: string;
  /** The namespace the operation's element is in ('' when none is declared). */
  namespace: string;
  /** The parameters in the order they came, each as its text (an element present and empty is ''). */
  parameters: [name: string, value: string][];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return ENTITIES[entity] ?? whole;
  });
const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The namespace URI `prefix` is bound to in `xml` (the default namespace for ''), or ''. */
function namespaceOf(xml: string, prefix: string, own: string): string {
  const attr = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
  const pattern = new RegExp(`${attr.replace(':', '\\:')}\\s*=\\s*["']([^"']*)["']`);
  return pattern.exec(own)?.[1] ?? pattern.exec(xml)?.[1] ?? '';
}

/** The call an envelope carries; undefined when it is no SOAP envelope with one operation in its body. */
export function readSoapCall(xml: string): SoapCall | undefined {
  const body = /<(?:[\w.-]+:)?Body(?:\s[^>]*)?>([\s\S]*)<\/(?:[\w.-]+:)?Body\s*>/.exec(xml);
  if (body === null) return undefined;
  const op = /<(?:([\w.-]+):)?([\w.-]+)((?:\s[^>]*?)?)(\/?)>/.exec(body[1]!);
  if (op === null) return undefined;
  const [, prefix = '', operation = '', attributes = '', selfClosing] = op;
  const namespace = namespaceOf(xml, prefix, attributes);
  if (selfClosing === '/') return { operation, namespace, parameters: [] };
  const rest = body[1]!.slice(op.index + op[0].length);
  const close = rest.search(new RegExp(`</(?:[\\w.-]+:)?${operation}\\s*>`));
  if (close < 0) return undefined;
  const inner = rest.slice(0, close);
  const parameters: [string, string][] = [];
  const child = /<(?:[\w.-]+:)?([\w.-]+)(?:\s[^>]*?)?(?:\/>|>([^<]*)<\/(?:[\w.-]+:)?\1\s*>)/g;
  for (let m = child.exec(inner); m !== null; m = child.exec(inner)) parameters.push([m[1]!, decode(m[2] ?? '')]);
  return { operation, namespace, parameters };
}

/** The `return` of an answer envelope to `operation`; undefined when the envelope is not that answer. */
export function readSoapReturn(xml: string, operation: string): string | undefined {
  const call = readSoapCall(xml);
  if (call?.operation !== `${operation}Response`) return undefined;
  return call.parameters.find(([name]) => name === 'return')?.[1];
}

/** The answer envelope of `operation` in `namespace`: `return` holds `value`. */
export function soapAnswer(operation: string, namespace: string, value: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ns2:${operation}Response xmlns:ns2="${namespace}"><return>${escape(value)}</return></ns2:${operation}Response></soap:Body></soap:Envelope>`;
}

/** A SOAP 1.1 Fault (answered with HTTP 500): `code` soap:Client for the caller's mistake, soap:Server for the service's. */
export function soapFault(code: 'soap:Client' | 'soap:Server', message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>${code}</faultcode><faultstring>${escape(message)}</faultstring></soap:Fault></soap:Body></soap:Envelope>`;
}
