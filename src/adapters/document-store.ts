/**
 * Where the merchants' uploaded business documents are kept: files in
 * DOCUMENTS_DIR, one folder per merchant, each file named by its id (no
 * extension, nothing from the uploader). Nothing serves this directory: the
 * dashboard only writes it, and operators read it with the CLI
 * (`merchants documents`). A directory inside the source tree is refused, so
 * a file can never end up next to the served assets.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, DEFAULT_DOCUMENTS_QUOTA_BYTES, type Config } from '../config.ts';

const SOURCE_TREE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface DocumentStore {
  directory: string;
  /** The most bytes of documents one merchant may keep here (DOCUMENTS_QUOTA_BYTES). */
  quotaBytes: number;
  write(merchantId: string, fileId: string, bytes: Uint8Array): Promise<void>;
  read(merchantId: string, fileId: string): Promise<Buffer>;
  remove(merchantId: string, fileId: string): Promise<void>;
}

const inside = (parent: string, child: string) => {
  const path = relative(parent, child);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
};

export function documentStore(
  config: Pick<Config, 'DOCUMENTS_DIR'> & Partial<Pick<Config, 'DOCUMENTS_QUOTA_BYTES'>>,
): DocumentStore {
  const directory = resolve(config.DOCUMENTS_DIR);
  if (inside(SOURCE_TREE, directory))
    throw new ConfigError(`Invalid configuration: DOCUMENTS_DIR must not be inside the source tree (${SOURCE_TREE})`);
  const pathOf = (merchantId: string, fileId: string) => {
    // Both are UUIDs the gateway made; checked anyway, so no path can leave the directory.
    if (!ID.test(merchantId) || !ID.test(fileId)) throw new Error('document ids must be UUIDs');
    return join(directory, merchantId, fileId);
  };
  return {
    directory,
    quotaBytes: config.DOCUMENTS_QUOTA_BYTES ?? DEFAULT_DOCUMENTS_QUOTA_BYTES,
    async write(merchantId, fileId, bytes) {
      const path = pathOf(merchantId, fileId);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await writeFile(path, bytes, { mode: 0o600, flag: 'wx' });
    },
    read: (merchantId, fileId) => readFile(pathOf(merchantId, fileId)),
    remove: (merchantId, fileId) => rm(pathOf(merchantId, fileId), { force: true }),
  };
}
