/**
 * Behpardakht Mellat's WSDL pair as the simulator serves it (docs/psps/mellat.md#the-wsdl): the
 * service document at {service}?wsdl (binding and address, namespace http://service.pgw.sw.bps.com/)
 * imports the interface document IPaymentGateway at {service}?wsdl=IPaymentGateway.wsdl (types,
 * messages and port type, namespace http://interfaces.core.sw.bps.com/), the split an Apache CXF
 * service publishes and that saved copies of Behpardakht's WSDL in public plugins show. Written here
 * from the published element names, order and types (every operation's parameters a sequence of
 * unqualified elements; terminalId, orderId, amounts and references xs:long; the user, password, dates,
 * additional data, callback address and payerId xs:string, optional; every answer one optional
 * xs:string `return`), not copied. Pure code: the documents are strings.
 */

/** The interface namespace: the operations' elements (the SOAP body's first child) are in it. */
export const MELLAT_NAMESPACE = 'http://interfaces.core.sw.bps.com/';
/** The service document's own namespace. */
export const MELLAT_SERVICE_NAMESPACE = 'http://service.pgw.sw.bps.com/';
/** The query that asks for the imported interface document. */
export const MELLAT_INTERFACE_QUERY = 'wsdl=IPaymentGateway.wsdl';

/** One parameter: its name, XML Schema type, and whether the published schema lets it be absent (minOccurs 0). */
type Part = readonly [name: string, type: 'long' | 'string', optional: boolean];

const terminal: Part[] = [
  ['terminalId', 'long', false],
  ['userName', 'string', true],
  ['userPassword', 'string', true],
];
const payment: Part[] = [
  ...terminal,
  ['orderId', 'long', false],
  ['amount', 'long', false],
  ['localDate', 'string', true],
  ['localTime', 'string', true],
  ['additionalData', 'string', true],
  ['callBackUrl', 'string', true],
];
const sale: Part[] = [
  ...terminal,
  ['orderId', 'long', false],
  ['saleOrderId', 'long', false],
  ['saleReferenceId', 'long', false],
];
const refundOf: Part[] = [
  ...terminal,
  ['orderId', 'long', false],
  ['refundOrderId', 'long', false],
  ['refundReferenceId', 'long', false],
];

/** Every operation of the published interface, with its parameters in their published order. */
export const MELLAT_OPERATIONS: Readonly<Record<string, readonly Part[]>> = {
  bpPayRequest: [...payment, ['payerId', 'string', true]],
  bpVerifyRequest: sale,
  bpSettleRequest: sale,
  bpInquiryRequest: sale,
  bpReversalRequest: sale,
  bpRefundRequest: [...sale, ['refundAmount', 'long', false]],
  bpRefundVerifyRequest: refundOf,
  bpRefundInquiryRequest: refundOf,
  bpSaleReferenceIdRequest: [...terminal, ['orderId', 'long', false], ['saleOrderId', 'long', false]],
  bpChargePayRequest: [...payment, ['payerId', 'string', true]],
  bpDynamicPayRequest: [...payment, ['payerId', 'string', true], ['subServiceId', 'long', false]],
  bpCumulativeDynamicPayRequest: payment,
  bpPosRefundRequest: [
    ['user', 'string', true],
    ['password', 'string', true],
    ['saleReferenceId', 'long', false],
    ['refundAmount', 'long', false],
  ],
  bpRefundToPANRequest: [
    ['user', 'string', true],
    ['password', 'string', true],
    ['pan', 'long', true],
    ['amount', 'long', false],
    ['saleReferenceId', 'long', true],
    ['terminalId', 'long', false],
  ],
};

const element = ([name, type, optional]: Part) =>
  `<xs:element${optional ? ' minOccurs="0"' : ''} name="${name}" type="xs:${type}"/>`;

/** The interface document (IPaymentGateway): the operations' types, messages and port type. */
export function mellatInterfaceWsdl(): string {
  const names = Object.keys(MELLAT_OPERATIONS);
  const types = names.flatMap((op) => [
    `<xs:element name="${op}" type="tns:${op}"/>`,
    `<xs:element name="${op}Response" type="tns:${op}Response"/>`,
    `<xs:complexType name="${op}"><xs:sequence>${MELLAT_OPERATIONS[op]!.map(element).join('')}</xs:sequence></xs:complexType>`,
    `<xs:complexType name="${op}Response"><xs:sequence><xs:element minOccurs="0" name="return" type="xs:string"/></xs:sequence></xs:complexType>`,
  ]);
  const messages = names.flatMap((op) => [
    `<wsdl:message name="${op}"><wsdl:part name="parameters" element="ns1:${op}"/></wsdl:message>`,
    `<wsdl:message name="${op}Response"><wsdl:part name="parameters" element="ns1:${op}Response"/></wsdl:message>`,
  ]);
  const operations = names.map(
    (op) =>
      `<wsdl:operation name="${op}"><wsdl:input name="${op}" message="ns1:${op}"/><wsdl:output name="${op}Response" message="ns1:${op}Response"/></wsdl:operation>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<wsdl:definitions name="IPaymentGateway" targetNamespace="${MELLAT_NAMESPACE}" xmlns:ns1="${MELLAT_NAMESPACE}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
<wsdl:types>
<xs:schema elementFormDefault="unqualified" targetNamespace="${MELLAT_NAMESPACE}" version="1.0" xmlns:tns="${MELLAT_NAMESPACE}" xmlns:xs="http://www.w3.org/2001/XMLSchema">
${types.join('\n')}
</xs:schema>
</wsdl:types>
${messages.join('\n')}
<wsdl:portType name="IPaymentGateway">
${operations.join('\n')}
</wsdl:portType>
</wsdl:definitions>
`;
}

/** The service document: imports the interface from `serviceUrl`?wsdl=IPaymentGateway.wsdl; the SOAP address is `serviceUrl`. */
export function mellatServiceWsdl(serviceUrl: string): string {
  const operations = Object.keys(MELLAT_OPERATIONS).map(
    (op) =>
      `<wsdl:operation name="${op}"><soap:operation soapAction="" style="document"/><wsdl:input name="${op}"><soap:body use="literal"/></wsdl:input><wsdl:output name="${op}Response"><soap:body use="literal"/></wsdl:output></wsdl:operation>`,
  );
  const escaped = serviceUrl.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  return `<?xml version="1.0" encoding="UTF-8"?>
<wsdl:definitions name="PaymentGatewayImplService" targetNamespace="${MELLAT_SERVICE_NAMESPACE}" xmlns:ns1="${MELLAT_NAMESPACE}" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="${MELLAT_SERVICE_NAMESPACE}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
<wsdl:import location="${escaped}?${MELLAT_INTERFACE_QUERY}" namespace="${MELLAT_NAMESPACE}"/>
<wsdl:binding name="PaymentGatewayImplServiceSoapBinding" type="ns1:IPaymentGateway">
<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
${operations.join('\n')}
</wsdl:binding>
<wsdl:service name="PaymentGatewayImplService">
<wsdl:port binding="tns:PaymentGatewayImplServiceSoapBinding" name="PaymentGatewayImplPort"><soap:address location="${escaped}"/></wsdl:port>
</wsdl:service>
</wsdl:definitions>
`;
}
