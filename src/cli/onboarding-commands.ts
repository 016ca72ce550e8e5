/**
 * The operator's onboarding commands (docs/DASHBOARD.md#the-operators-review):
 * every step is an Update of the merchant's onboarding workflow (src/merchants/onboarding.ts),
 * so the CLI and the dashboard follow the same rules; listing and documents read MySQL.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { documentStore } from '../adapters/document-store.ts';
import { createOnboardedMerchant } from '../merchants/merchants.ts';
import { operatorDocuments, submitDocuments } from '../merchants/documents.ts';
import {
  activateLiveMode,
  addDomain,
  approveGateway,
  listMerchantsByStatus,
  rejectGateway,
  requestGateway,
} from '../merchants/onboarding.ts';

export type Flags = Record<string, string | boolean | string[] | undefined>;
/** What a command may use besides MySQL: the Temporal client, connected on first use. */
export interface CliServices {
  temporal(): Promise<Client>;
}
export type Command = (db: Db, config: Config, flags: Flags, services: CliServices) => Promise<Record<string, unknown>>;

export class UsageError extends Error {
  override name = 'UsageError';
}

export function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

const optional = (flags: Flags, name: string): string | undefined => {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
};

const onboarding = async (db: Db, config: Config, services: CliServices) => ({
  db,
  config,
  temporal: await services.temporal(),
});

export const ONBOARDING_COMMANDS: Record<string, Command> = {
  'merchants create': async (db, config, flags, services) =>
    createOnboardedMerchant(
      { ...(await onboarding(db, config, services)) },
      { name: required(flags, 'name'), domain: required(flags, 'domain') },
    ),
  'merchants list': async (db, _config, flags) => listMerchantsByStatus(db, required(flags, 'status')),
  'merchants documents': async (db, config, flags) =>
    operatorDocuments({ db, store: documentStore(config) }, required(flags, 'merchant'), optional(flags, 'output')),
  'domains add': async (db, config, flags, services) =>
    addDomain(await onboarding(db, config, services), required(flags, 'merchant'), required(flags, 'domain')),
  'documents submit': async (db, config, flags, services) => {
    const paths = Array.isArray(flags.file) ? flags.file : [];
    const files = await Promise.all(paths.map(async (path) => ({ name: basename(path), bytes: await readFile(path) })));
    const fields = {
      legal_name: required(flags, 'legal-name'),
      id_kind: required(flags, 'id-kind'),
      national_id: required(flags, 'national-id'),
      iban: required(flags, 'iban'),
    };
    const view = await submitDocuments(
      { ...(await onboarding(db, config, services)), store: documentStore(config) },
      required(flags, 'merchant'),
      fields,
      files,
    );
    return { merchant_id: view.merchant_id, onboarding_status: view.status };
  },
  'gateways request': async (db, config, flags, services) =>
    requestGateway(await onboarding(db, config, services), required(flags, 'merchant')),
  'gateways approve': async (db, config, flags, services) =>
    approveGateway(await onboarding(db, config, services), required(flags, 'merchant')),
  'gateways reject': async (db, config, flags, services) =>
    rejectGateway(await onboarding(db, config, services), required(flags, 'merchant'), required(flags, 'reason')),
  'live activate': async (db, config, flags, services) =>
    activateLiveMode(await onboarding(db, config, services), required(flags, 'merchant')),
};

export const ONBOARDING_OPTIONS = {
  reason: { type: 'string' },
  status: { type: 'string' },
  output: { type: 'string' },
  'legal-name': { type: 'string' },
  'id-kind': { type: 'string' },
  'national-id': { type: 'string' },
  iban: { type: 'string' },
  file: { type: 'string', multiple: true },
} as const;
