/**
 * The Jibit identity service's conformance corpus (test/fixtures/identity/jibit/, its README): one
 * JSON file per message, loaded and typed for the connector's and the simulator's unit tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const JIBIT_CORPUS_DIR = join('test', 'fixtures', 'identity', 'jibit');

export interface CorpusSource {
  repo: string;
  path: string;
  commit?: string;
  note: string;
}

export interface JibitCorpusMessage {
  name: string;
  provider: 'jibit';
  operation: 'token' | 'cardToIban' | 'ibanOwner' | 'any';
  direction: 'request' | 'answer';
  http: { method: 'GET' | 'POST'; path: string; encoding: 'json' | 'query' };
  message: {
    status?: number;
    json?: Record<string, unknown> | null;
    query?: Record<string, string>;
    order?: string[];
    headers?: Record<string, string>;
  };
  outcome: 'request' | 'token' | 'account' | 'refused' | 'unavailable' | 'token_refused';
  code?: string;
  expected?: Record<string, unknown>;
  sources: CorpusSource[];
  disagreements: string;
}

export function loadJibitCorpus(): JibitCorpusMessage[] {
  return readdirSync(JIBIT_CORPUS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({
      name: f.replace(/\.json$/, ''),
      ...(JSON.parse(readFileSync(join(JIBIT_CORPUS_DIR, f), 'utf8')) as Omit<JibitCorpusMessage, 'name'>),
    }));
}

export function jibitCorpusMessage(name: string): JibitCorpusMessage {
  const m = loadJibitCorpus().find((c) => c.name === name);
  if (m === undefined) throw new Error(`no corpus file ${name}.json`);
  return m;
}
