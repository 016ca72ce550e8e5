// `npm run openapi`: writes openapi/openapi.json from the code; a test fails when the committed file differs.
import { writeFileSync } from 'node:fs';
import { OPENAPI_FILE, openApiDocumentText } from './document.ts';

writeFileSync(OPENAPI_FILE, openApiDocumentText());
process.stdout.write(`wrote ${OPENAPI_FILE.pathname}\n`);
