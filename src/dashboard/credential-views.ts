/**
 * The developers page's credentials: a row of each (an API key, a compatible protocol's value), and
 * the section on ZarinPal's and Zibal's protocols (docs/COMPAT.md#credentials): the merchant's
 * values per mode, never shown again after they are made (only their last four characters), and
 * the values just made, once.
 */
import type { CompatCredentials } from '../merchants/compat-credentials.ts';
import type { CompatProtocol } from '../domain/compat-protocols.ts';
import type { KeyMode } from '../domain/merchant.ts';
import { formatTime, strings, type Lang } from './i18n.ts';

/** A credential as stored: its mode and dates. */
export interface CredentialDates {
  mode: KeyMode;
  created_at: Date;
  revoked_at: Date | null;
  expires_at: Date | null;
  last_used_at: Date | null;
}

/** A credential's row (an API key, a compatible protocol's value): its mode, dates and whether it still works. */
export function credentialView(k: CredentialDates, lang: Lang, now: number) {
  const t = strings(lang);
  const active = k.revoked_at === null && (k.expires_at === null || k.expires_at.getTime() > now);
  return {
    mode: t[`mode_${k.mode}`],
    created: formatTime(k.created_at, lang),
    lastUsed: k.last_used_at === null ? t.never : formatTime(k.last_used_at, lang),
    // A rolled credential keeps working until its expiry: it says when.
    state:
      k.revoked_at !== null
        ? t.keyRevoked
        : !active
          ? t.keyExpired
          : k.expires_at !== null
            ? `${t.keyExpires} ${formatTime(k.expires_at, lang)}`
            : t.keyActive,
    active,
  };
}

export interface CompatRow {
  id: string;
  mode: KeyMode;
  protocol: CompatProtocol;
  hint: string;
  created_at: Date;
  revoked_at: Date | null;
  expires_at: Date | null;
  last_used_at: Date | null;
}

export type CompatSection = ReturnType<typeof compatSection>;

export function compatSection(rows: CompatRow[], lang: Lang, justMade?: CompatCredentials) {
  const t = strings(lang);
  const now = Date.now();
  return {
    rows: rows.map((row) => ({
      id: row.id,
      protocol: row.protocol === 'zarinpal' ? t.compatZarinpal : t.compatZibal,
      hint: `…${row.hint}`,
      ...credentialView(row, lang, now),
    })),
    newValues:
      justMade === undefined
        ? undefined
        : [
            { label: t.compatZarinpal, value: justMade.zarinpal_merchant_id, id: 'new-zarinpal-merchant-id' },
            { label: t.compatZibal, value: justMade.zibal_merchant, id: 'new-zibal-merchant' },
          ],
  };
}
