/**
 * docker-compose.yml as the deployment tests read it: parsed, and each service's environment
 * interpolated the way `docker compose` does, with the secrets an operator supplies.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { pspSettings } from '../../src/psps/profiles.ts';

export interface Service {
  image?: string;
  build?: string;
  read_only?: boolean;
  tmpfs?: string[];
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  mem_limit?: string;
}

/** docker-compose.yml as docker compose reads it (YAML merge keys resolved). */
export const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};

/** What `docker compose` does with `${VAR}`, `${VAR:?message}`, `${VAR:-default}` and `$$` in a value. */
function interpolate(value: string, env: Record<string, string | undefined>): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[?-])([^}]*))?\}/g,
    (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
      if (whole === '$$') return '$';
      const set = env[name!];
      const missing = op?.startsWith(':') ? set === undefined || set === '' : set === undefined;
      if (op?.endsWith('?') && missing) throw new Error(`required variable ${name} is missing a value: ${arg}`);
      if (op?.endsWith('-') && missing) return arg ?? '';
      return set ?? '';
    },
  );
}

/** The secrets an operator supplies: random, URL-safe, as the comments ask for (openssl rand -hex 32, or a secret's own command). */
export const SECRETS = {
  MYSQL_ROOT_PASSWORD: '3f1c9e2a7b5d4e8f0a6c1b2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f',
  DARGAH_DB_PASSWORD: '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b',
  DARGAH_MIGRATE_DB_PASSWORD: '1b2c3d4e5f60718293a4b5c6d7e8f9012a3b4c5d6e7f8091a2b3c4d5e6f70819',
  TEMPORAL_DB_PASSWORD: '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
  PAGES_CSRF_SECRET: 'c2b7e1d94f3a8065b1e7d2c9a4f8306e5b2d7c1e9a4f8306b5e2d7c1a9f4e830',
  DASHBOARD_SECRETS_KEY: '5e2d7c1a9f4e830c2b7e1d94f3a8065b1e7d2c9a4f8306e5b2d7c1e9a4f8306b',
  CARD_HASH_KEY: '6f0a4c8e2b7d1f5a9c3e6b0d4f8a2c7e1b5d9f3a6c0e4b8d2f7a1c5e9b3d6f0a',
  GRAFANA_ADMIN_PASSWORD: '7d3e9a1c5b8f2e4d6a0c9b3e7f1d5a8c2e6b0d4f9a3c7e1b5d8f2a6c0e4b9d3f',
  SMTP_URL: 'smtp://dargah:4c8e2a6f0b3d7e1a5c9f2b6d0e4a8c3f@relay.internal:587',
  // Each PSP simulator's secret settings (its terminal's password), one value each.
  ...(Object.fromEntries(
    pspSettings()
      .filter((s) => s.mode === 'test' && s.secret)
      .map((s, i) => [
        s.name,
        // A secret of a checked shape as its own command makes it (Sadad's key: base64 of 24 bytes).
        s.make === undefined
          ? `${(i + 1).toString(16).repeat(8)}2a6c0e4b9d3f7d3e9a1c5b8f2e4d6a0c9b3e7f1d5a8c`
          : Buffer.from('3f1c9e2a7b5d4e8f0a6c1b2d3e4f5a6b7c8d9e0f1a2b3c4d', 'hex').toString('base64'),
      ]),
  ) as Record<string, string>),
};

/** A service's environment as docker compose hands it to the container, with these variables set. */
export function environmentOf(name: string, env: Record<string, string | undefined> = SECRETS): Record<string, string> {
  return Object.fromEntries(
    Object.entries(compose.services[name]!.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), env)]),
  );
}
