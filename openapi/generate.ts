// `npm run openapi`: writes openapi/openapi.json and the generated client types from the code;
// tests fail when the committed files differ.
import { mkdirSync, writeFileSync } from 'node:fs';
import { OPENAPI_FILE, openApiDocumentText } from './document.ts';
import { CLIENT_TYPES_FILE, clientTypesText } from './client-types.ts';
import { COMPAT_OPENAPI_FILE, compatDocumentText } from './compat.ts';

writeFileSync(OPENAPI_FILE, openApiDocumentText());
writeFileSync(COMPAT_OPENAPI_FILE, compatDocumentText());
mkdirSync(new URL('./generated/', import.meta.url), { recursive: true });
writeFileSync(CLIENT_TYPES_FILE, await clientTypesText());
process.stdout.write(
  `wrote ${OPENAPI_FILE.pathname}, ${COMPAT_OPENAPI_FILE.pathname} and ${CLIENT_TYPES_FILE.pathname}\n`,
);
