/**
 * The XML-RPC dialect (`/xmlrpc/<service>` with string faultCodes, `/xmlrpc/2/<service>` with int
 * faultCodes): its public surface. The expat port, the Unmarshaller and the Python text
 * conversions behind `decodeRequest` are internal to this folder.
 */
export { contentTypeXml, formLimit, formTooLargePage, isFormContentType, isRequestContentTypeAccepted } from './content-type.ts';
export { decodeRequest, defaultMaxDepth, unmarshalRequest, type DecodeLimits } from './decode.ts';
export { defaultMarshalOptions, encodeFault, encodeResponse, type MarshalOptions } from './encode.ts';
export { stringFaultFromError, type StringFault } from './fault-v1.ts';
export { faultFromError, type IntFault } from './fault-v2.ts';
export { createXmlRpcHandler, type XmlRpcHandlerDeps } from './handler.ts';
