/**
 * The configuration table docs/CONFIGURATION.md and the README's configuration section hold, generated
 * from the settings' schema (test/foundation/readme.test.ts keeps them equal). `npm run readme:config`
 * prints it.
 */
import { fileURLToPath } from 'node:url';
import { ConfigSchema } from '../../src/config-schema.ts';

export function configurationTable(): string {
  const rows = Object.entries(ConfigSchema.properties).map(([name, schema]) => {
    const s = schema as { default?: unknown; description?: string };
    const def = s.default === '' ? '' : `\`${String(s.default)}\``;
    return `| \`${name}\` | ${def} | ${s.description ?? ''} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(configurationTable());
