/**
 * Seals the secrets the dashboard must be able to read back (the users' TOTP
 * secrets) before they go to MySQL: AES-256-GCM under a key derived from
 * DASHBOARD_SECRETS_KEY, a fresh 96-bit nonce each time, and the user's id as
 * associated data, so a sealed value copied onto another user's row does not
 * open. Without the setting (a developer's machine) values are stored
 * unsealed, marked as such, and the gateway warns at start.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const SEALED = 'v1';
const PLAIN = 'plain';

export interface SecretBox {
  readonly sealing: boolean;
  seal(plain: string, owner: string): string;
  open(stored: string, owner: string): string;
}

export function secretBox(setting: string): SecretBox {
  const key =
    setting === ''
      ? undefined
      : Buffer.from(hkdfSync('sha256', setting, Buffer.alloc(0), 'dargah-dashboard-secrets', 32));
  return {
    sealing: key !== undefined,
    seal(plain, owner) {
      if (key === undefined) return `${PLAIN}.${Buffer.from(plain, 'utf8').toString('base64url')}`;
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(owner, 'utf8'));
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [SEALED, nonce, sealed, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(stored, owner) {
      const [kind, ...parts] = stored.split('.');
      if (kind === PLAIN && parts.length === 1) return Buffer.from(parts[0]!, 'base64url').toString('utf8');
      if (kind !== SEALED || parts.length !== 3) throw new Error('not a sealed secret');
      // A sealed value and no key: the setting was removed; say so rather than fail obscurely.
      if (key === undefined) throw new Error('a sealed secret needs DASHBOARD_SECRETS_KEY');
      const [nonce, sealed, tag] = parts.map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
      const decipher = createDecipheriv('aes-256-gcm', key, nonce);
      decipher.setAAD(Buffer.from(owner, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
    },
  };
}
