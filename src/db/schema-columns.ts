/** What the table types beside schema.ts share. */
import type { ColumnType } from 'kysely';

/** Columns the database fills in; optional on insert. */
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
