/**
 * Parsian's PEC IPG services as the simulator publishes them (docs/psps/parsian.md#the-services):
 * three ASP.NET web services (.asmx), each with its own WSDL at {path}?wsdl and its own namespace,
 * https://pec.Shaparak.ir/NewIPGServices/<Sale|Confirm|Reversal>/<Name>Service (the capital S is
 * PEC's). Each operation takes one `requestData` object and answers one `<Operation>Result` object,
 * document/literal, every element qualified in the service's namespace. Written here from the names,
 * order and types that public references show (the svcutil proxies of the sale and confirm services in
 * Soghandi/BankPayment; Parbad's envelopes; PEC's own IPG document), not copied: no reference holds a
 * saved copy of the WSDL. The published inheritance (ClientSaleRequestData extends
 * ClientPaymentRequestDataBase, ClientSaleResponseData extends ClientPaymentResponseDataBase) is kept
 * as the proxies show it. Only the operations a reference calls are published here: SalePaymentRequest,
 * ConfirmPayment, ReversalRequest. Pure code: the documents are strings.
 */

/** One field of a data contract: its name, XML Schema type, and whether it may be absent (minOccurs 0). */
type Field = readonly [name: string, type: 'long' | 'short' | 'string', optional: boolean];

export interface ParsianService {
  /** The service's path; its WSDL is at this path with ?wsdl (ASP.NET answers ?WSDL the same). */
  path: string;
  /** Its XML namespace (the operations' elements and every field are in it). */
  namespace: string;
  /** The service's name in its WSDL. */
  name: string;
  /** The one operation a reference calls on it. */
  operation: string;
  /** The request's and the answer's data contracts: their type names and fields, in order. */
  request: { type: string; base?: string; fields: readonly Field[] };
  answer: { type: string; base?: string; fields: readonly Field[] };
}

const LOGIN_ACCOUNT: Field = ['LoginAccount', 'string', true];
const TOKEN: Field = ['Token', 'long', false];

/** The sale service: SalePaymentRequest(requestData) → SalePaymentRequestResult (Token, Message, Status). */
export const PARSIAN_SALE: ParsianService = {
  path: '/NewIPGServices/Sale/SaleService.asmx',
  namespace: 'https://pec.Shaparak.ir/NewIPGServices/Sale/SaleService',
  name: 'SaleService',
  operation: 'SalePaymentRequest',
  request: {
    type: 'ClientSaleRequestData',
    base: 'ClientPaymentRequestDataBase',
    fields: [
      LOGIN_ACCOUNT,
      ['Amount', 'long', false],
      ['OrderId', 'long', false],
      ['CallBackUrl', 'string', true],
      ['AdditionalData', 'string', true],
      ['Originator', 'string', true],
    ],
  },
  answer: {
    type: 'ClientSaleResponseData',
    base: 'ClientPaymentResponseDataBase',
    fields: [TOKEN, ['Message', 'string', true], ['Status', 'short', false]],
  },
};

/** The confirm service: ConfirmPayment(requestData) → ConfirmPaymentResult (Status, CardNumberMasked, RRN, Token). */
export const PARSIAN_CONFIRM: ParsianService = {
  path: '/NewIPGServices/Confirm/ConfirmService.asmx',
  namespace: 'https://pec.Shaparak.ir/NewIPGServices/Confirm/ConfirmService',
  name: 'ConfirmService',
  operation: 'ConfirmPayment',
  request: { type: 'ClientConfirmRequestData', fields: [LOGIN_ACCOUNT, TOKEN] },
  answer: {
    type: 'ClientConfirmResponseData',
    fields: [['Status', 'short', false], ['CardNumberMasked', 'string', true], ['RRN', 'long', false], TOKEN],
  },
};

/**
 * The reversal service: ReversalRequest(requestData) → ReversalRequestResult (Status, Message, Token).
 * Its path says Reverse, its namespace Reversal: both as the references have them.
 */
export const PARSIAN_REVERSAL: ParsianService = {
  path: '/NewIPGServices/Reverse/ReversalService.asmx',
  namespace: 'https://pec.Shaparak.ir/NewIPGServices/Reversal/ReversalService',
  name: 'ReversalService',
  operation: 'ReversalRequest',
  request: { type: 'ClientReversalRequestData', fields: [LOGIN_ACCOUNT, TOKEN] },
  answer: {
    type: 'ClientReversalResponseData',
    fields: [['Status', 'short', false], ['Message', 'string', true], TOKEN],
  },
};

export const PARSIAN_SERVICES: readonly ParsianService[] = [PARSIAN_SALE, PARSIAN_CONFIRM, PARSIAN_REVERSAL];

const element = ([name, type, optional]: Field) =>
  `<s:element minOccurs="${optional ? 0 : 1}" maxOccurs="1" name="${name}" type="s:${type}"/>`;

/** A data contract: a sequence of its fields, or (with a base) an empty extension of the base that holds them. */
function contract({ type, base, fields }: ParsianService['request']): string {
  const sequence = `<s:sequence>${fields.map(element).join('')}</s:sequence>`;
  if (base === undefined) return `<s:complexType name="${type}">${sequence}</s:complexType>`;
  return `<s:complexType name="${base}">${sequence}</s:complexType><s:complexType name="${type}"><s:complexContent mixed="false"><s:extension base="tns:${base}"/></s:complexContent></s:complexType>`;
}

/** The WSDL of `service`, its SOAP address `serviceUrl`: SOAP 1.1, document/literal, as an .asmx publishes it. */
export function parsianWsdl(service: ParsianService, serviceUrl: string): string {
  const { namespace: ns, operation: op, name } = service;
  const escaped = serviceUrl.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  return `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions targetNamespace="${ns}" xmlns:tns="${ns}" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
<wsdl:types>
<s:schema elementFormDefault="qualified" targetNamespace="${ns}">
<s:element name="${op}"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="requestData" type="tns:${service.request.type}"/></s:sequence></s:complexType></s:element>
${contract(service.request)}
<s:element name="${op}Response"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="${op}Result" type="tns:${service.answer.type}"/></s:sequence></s:complexType></s:element>
${contract(service.answer)}
</s:schema>
</wsdl:types>
<wsdl:message name="${op}SoapIn"><wsdl:part name="parameters" element="tns:${op}"/></wsdl:message>
<wsdl:message name="${op}SoapOut"><wsdl:part name="parameters" element="tns:${op}Response"/></wsdl:message>
<wsdl:portType name="${name}Soap"><wsdl:operation name="${op}"><wsdl:input message="tns:${op}SoapIn"/><wsdl:output message="tns:${op}SoapOut"/></wsdl:operation></wsdl:portType>
<wsdl:binding name="${name}Soap" type="tns:${name}Soap">
<soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
<wsdl:operation name="${op}"><soap:operation soapAction="${ns}/${op}" style="document"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
</wsdl:binding>
<wsdl:service name="${name}"><wsdl:port name="${name}Soap" binding="tns:${name}Soap"><soap:address location="${escaped}"/></wsdl:port></wsdl:service>
</wsdl:definitions>
`;
}

/** A SOAP 1.1 answer of `service`'s operation: `<{op}Response><{op}Result>` holding `values` in the contract's order, absent ones left out. */
export function parsianAnswer(
  service: ParsianService,
  values: Readonly<Record<string, string | number | undefined>>,
): string {
  const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const fields = service.answer.fields
    .filter(([field]) => values[field] !== undefined)
    .map(([field]) => `<${field}>${escape(String(values[field]))}</${field}>`)
    .join('');
  const op = service.operation;
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><${op}Response xmlns="${service.namespace}"><${op}Result>${fields}</${op}Result></${op}Response></soap:Body></soap:Envelope>`;
}
