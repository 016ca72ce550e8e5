/**
 * TypeScript types of the API for clients, generated from the OpenAPI
 * document by openapi-typescript (a real generator), committed under
 * openapi/generated/ and checked for staleness by a test.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocumentText } from './document.ts';

export const CLIENT_TYPES_FILE = new URL('./generated/schema.d.ts', import.meta.url);

export async function clientTypesText(): Promise<string> {
  const ast = await openapiTS(openApiDocumentText());
  return `// Generated from openapi/openapi.json by openapi-typescript (npm run openapi). Do not edit.\n${astToString(ast)}`;
}
