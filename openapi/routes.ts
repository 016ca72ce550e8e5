/**
 * The contract, served: the OpenAPI document at /api/v1/openapi.json (no key
 * needed) and a human docs page at /docs rendered from it by Swagger UI,
 * whose assets the gateway serves itself (no CDN).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Router from '@koa/router';
import type { Config } from '../src/config.ts';
import { buildOpenApiDocument } from './build.ts';
import { buildCompatDocument } from './compat.ts';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: join(swaggerUiDir, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: join(swaggerUiDir, 'swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8' },
};

// Our own start-up script, served as a file so the page needs no inline script.
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#docs', deepLinking: true });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dargah API documentation</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

// Swagger UI sets inline styles, hence 'unsafe-inline' for styles only; scripts come from us alone.
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function docsRoutes(config: Pick<Config, 'AMOUNT_MIN' | 'AMOUNT_MAX' | 'PUBLIC_BASE_URL'>): Router {
  const document = JSON.stringify(
    buildOpenApiDocument({ min: config.AMOUNT_MIN, max: config.AMOUNT_MAX }, config.PUBLIC_BASE_URL),
  );
  const assets = new Map(
    Object.entries(ASSETS).map(([name, { file, type }]) => [name, { body: readFileSync(file), type }]),
  );
  assets.set('init.js', { body: Buffer.from(INIT_SCRIPT), type: 'text/javascript; charset=utf-8' });

  const compat = JSON.stringify(buildCompatDocument(config.PUBLIC_BASE_URL));
  const router = new Router();
  router.get('/api/v1/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = document;
  });
  router.get('/openapi/compat.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = compat;
  });
  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', DOCS_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.type = 'html';
    ctx.body = PAGE;
  });
  router.get('/docs/assets/:name', (ctx) => {
    const asset = assets.get(ctx.params.name ?? '');
    if (asset === undefined) return; // 404 not_found from the error handler
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = asset.type;
    ctx.body = asset.body;
  });
  return router;
}
