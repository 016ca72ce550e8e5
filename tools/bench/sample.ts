/**
 * What the soak (tools/bench/soak.ts) samples at every interval, apart from
 * its own latencies: each process's memory (RSS from /proc, V8 heap and
 * event-loop delay from its Prometheus metrics), open workflows by type, and
 * storage: MySQL's bytes and rows per table (information_schema after
 * ANALYZE TABLE, rows counted exactly) and Temporal's (the dev server's
 * SQLite file, or the cluster's PostgreSQL database).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { sql } from 'kysely';
import type { Client } from '@temporalio/client';
import type { Db } from '../../src/db/database.ts';
import { cpuMs, openWorkflows } from './work.ts';

/** A process the soak watches: its pid (RSS) and, for the Node processes, its /metrics. */
export interface WatchedProcess {
  name: string;
  pid?: number;
  metricsUrl?: string;
}

export interface ProcessSample {
  name: string;
  rss_mb?: number;
  /** CPU time used since the process started (user + system, all threads), from /proc: the soak's CPU per payment is its growth. */
  cpu_ms?: number;
  /** Main thread's V8 heap (prom-client's nodejs_heap_size_*_bytes). */
  heap_used_mb?: number;
  heap_total_mb?: number;
  /** The worker threads' heaps (the Temporal SDK runs the workflows in one): dargah_worker_threads_heap_bytes. */
  threads_heap_used_mb?: number;
  threads_heap_total_mb?: number;
  /** p99 of the event-loop delay since the previous scrape (prom-client resets it at each). */
  eventloop_p99_ms?: number;
  /** The Temporal SDK's sticky cache: workflows kept in the worker's memory between their tasks. */
  cached_workflows?: number;
  /** This process's MySQL pool: connections open (in use + idle). */
  pool_connections?: number;
}

export interface TableStorage {
  rows: number;
  data_bytes: number;
  index_bytes: number;
}

export interface StorageSample {
  mysql_bytes: number;
  mysql_rows: number;
  mysql_tables: Record<string, TableStorage>;
  /** The dev server's SQLite file (with its WAL), or the cluster's PostgreSQL database. */
  temporal_bytes: number;
}

const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;

/** Resident memory of a process in bytes (Linux /proc), or undefined once it is gone. */
export function rssBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

/** CPU time of a process so far, or undefined once it is gone. */
function cpuMsOf(pid: number): number | undefined {
  try {
    return cpuMs(pid);
  } catch {
    return undefined;
  }
}

/**
 * The pid of a process of this machine running one of `commands` (its /proc comm), if there is
 * one: the soak watches the local MySQL server's CPU this way (a remote one is not seen).
 */
export function localProcessPid(commands: readonly string[]): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (commands.includes(readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) return Number(entry);
    } catch {
      // The process ended while the list was read.
    }
  }
  return undefined;
}

/** Samples of a Prometheus text exposition, summed over their labels, by metric name. */
export function parsePrometheus(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (match === null) continue;
    const value = Number(match[3]);
    if (!Number.isFinite(value)) continue;
    const name = match[2] === undefined ? match[1]! : `${match[1]!}${labelKey(match[2])}`;
    values.set(name, (values.get(name) ?? 0) + value);
    // Every sample also counts towards its metric's total over all labels.
    if (match[2] !== undefined) values.set(match[1]!, (values.get(match[1]!) ?? 0) + value);
  }
  return values;
}

/** `{kind="used",x="y"}` → `{kind=used}` when the only label is kind (the one label the soak reads by value). */
function labelKey(labels: string): string {
  const kind = /kind="([^"]*)"/.exec(labels)?.[1];
  return kind === undefined ? '{}' : `{kind=${kind}}`;
}

/** One process's memory and event-loop delay. A process whose metrics do not answer gives its RSS alone. */
export async function sampleProcess(p: WatchedProcess): Promise<ProcessSample> {
  const rss = p.pid === undefined ? undefined : rssBytes(p.pid);
  const cpu = p.pid === undefined ? undefined : cpuMsOf(p.pid);
  const sample: ProcessSample = {
    name: p.name,
    ...(rss === undefined ? {} : { rss_mb: mb(rss) }),
    ...(cpu === undefined ? {} : { cpu_ms: cpu }),
  };
  if (p.metricsUrl === undefined) return sample;
  let metrics: Map<string, number>;
  try {
    const res = await fetch(p.metricsUrl, { signal: AbortSignal.timeout(10_000) });
    metrics = parsePrometheus(await res.text());
  } catch {
    return sample;
  }
  const read = (name: string, scale: (n: number) => number) => {
    const value = metrics.get(name);
    return value === undefined ? undefined : scale(value);
  };
  const fields: Partial<ProcessSample> = {
    heap_used_mb: read('nodejs_heap_size_used_bytes', mb),
    heap_total_mb: read('nodejs_heap_size_total_bytes', mb),
    threads_heap_used_mb: read('dargah_worker_threads_heap_bytes{kind=used}', mb),
    threads_heap_total_mb: read('dargah_worker_threads_heap_bytes{kind=total}', mb),
    eventloop_p99_ms: read('nodejs_eventloop_lag_p99_seconds', (s) => Math.round(s * 10_000) / 10),
    cached_workflows: read('temporal_sticky_cache_size', (n) => n),
    pool_connections: read('dargah_mysql_pool_connections', (n) => n),
  };
  const defined = Object.entries(fields).filter((entry): entry is [string, number] => typeof entry[1] === 'number');
  return { ...sample, ...Object.fromEntries(defined) };
}

/**
 * The database's tables: bytes of data and of indexes from information_schema
 * (after ANALYZE TABLE, which refreshes InnoDB's page counts), and rows
 * counted exactly (information_schema's are estimates).
 */
export async function mysqlStorage(
  db: Db,
): Promise<Pick<StorageSample, 'mysql_bytes' | 'mysql_rows' | 'mysql_tables'>> {
  const names = await db
    .selectFrom(
      sql<{ TABLE_NAME: string; TABLE_TYPE: string; TABLE_SCHEMA: string }>`information_schema.TABLES`.as('t'),
    )
    .select('TABLE_NAME')
    .where('TABLE_SCHEMA', '=', sql<string>`DATABASE()`)
    .where('TABLE_TYPE', '=', 'BASE TABLE')
    .execute();
  const tables = names.map((row) => row.TABLE_NAME).sort();
  for (const table of tables) await sql`ANALYZE TABLE ${sql.table(table)}`.execute(db);
  const sizes = await db
    .selectFrom(
      sql<{
        TABLE_NAME: string;
        DATA_LENGTH: number;
        INDEX_LENGTH: number;
        TABLE_SCHEMA: string;
      }>`information_schema.TABLES`.as('t'),
    )
    .select(['TABLE_NAME', 'DATA_LENGTH', 'INDEX_LENGTH'])
    .where('TABLE_SCHEMA', '=', sql<string>`DATABASE()`)
    .execute();
  const result: Record<string, TableStorage> = {};
  let bytes = 0;
  let rows = 0;
  for (const table of tables) {
    const size = sizes.find((s) => s.TABLE_NAME === table);
    const count = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(table)}`.execute(db);
    const entry = {
      rows: Number(count.rows[0]?.n ?? 0),
      data_bytes: Number(size?.DATA_LENGTH ?? 0),
      index_bytes: Number(size?.INDEX_LENGTH ?? 0),
    };
    result[table] = entry;
    bytes += entry.data_bytes + entry.index_bytes;
    rows += entry.rows;
  }
  return { mysql_bytes: bytes, mysql_rows: rows, mysql_tables: result };
}

/** A SQLite database's bytes on disk: the file, its write-ahead log and shared memory. */
export function sqliteBytes(file: string): number {
  return ['', '-wal', '-shm'].reduce(
    (sum, suffix) => sum + (existsSync(`${file}${suffix}`) ? statSync(`${file}${suffix}`).size : 0),
    0,
  );
}

/** Everything one interval samples besides latencies. */
export interface SystemSample {
  processes: ProcessSample[];
  open_workflows: number;
  open_workflows_by_type: Record<string, number>;
  storage: StorageSample;
}

export interface SampleSources {
  processes: WatchedProcess[];
  db: Db;
  temporal: Client;
  /** Temporal's storage in bytes: sqliteBytes of the dev server's file, or the cluster's PostgreSQL database size. */
  temporalBytes: () => Promise<number> | number;
}

export async function sampleSystem(sources: SampleSources): Promise<SystemSample> {
  const processes = await Promise.all(sources.processes.map(sampleProcess));
  const open = await openWorkflows(sources.temporal);
  const mysql = await mysqlStorage(sources.db);
  return {
    processes,
    open_workflows: open.total,
    open_workflows_by_type: open.by_type,
    storage: { ...mysql, temporal_bytes: await sources.temporalBytes() },
  };
}
