import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config.ts';
import { SEARCH_ATTRIBUTE_TYPES } from '../../workflows/definitions.ts';
import proto from '@temporalio/proto';

const { temporal } = proto;

export interface TemporalClient {
  client: Client;
  connection: Connection;
}

/** One connection per process, shared by every request. */
export async function connectTemporal(config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE'>): Promise<TemporalClient> {
  const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS, connectTimeout: '5s' });
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  return { client, connection };
}

const INDEXED_VALUE_TYPE = {
  Keyword: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  Int: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT,
} as const;

/**
 * Registers the payment search attributes on a cluster that lacks them (the
 * dev server gets them from its command line; an existing cluster from here).
 */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set([...Object.keys(existing.customAttributes ?? {}), ...Object.keys(existing.systemAttributes ?? {})]);
  const missing = Object.entries(SEARCH_ATTRIBUTE_TYPES).filter(([name]) => !known.has(name));
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map(([name, type]) => [name, INDEXED_VALUE_TYPE[type]])),
  });
}
