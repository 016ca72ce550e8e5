import { loadConfig } from '../src/config.ts';
import { buildOpenApiDocument } from './build.ts';

export const OPENAPI_FILE = new URL('./openapi.json', import.meta.url);

/** The committed document: built with the default amount bounds, as `npm run openapi` writes it. */
export function openApiDocumentText(): string {
  const config = loadConfig({});
  return `${JSON.stringify(buildOpenApiDocument({ min: config.AMOUNT_MIN, max: config.AMOUNT_MAX }), null, 2)}\n`;
}
