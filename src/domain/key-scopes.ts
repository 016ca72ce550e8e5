/**
 * What an API key may do beyond reading and taking payments (docs/API.md#key-scopes). One scope
 * today: `refunds`, the right to create refunds, which sends the merchant's money out. A test key
 * holds it always (test mode moves no money); a live key only once the merchant granted it, in the
 * dashboard with a recent second factor or by the operator's CLI, so a stolen live key refunds
 * nothing unless it was granted.
 */
import { KEY_SCOPES, type KeyMode, type KeyScope } from './merchant.ts';

export { KEY_SCOPES, type KeyScope };

export const isKeyScope = (text: unknown): text is KeyScope =>
  typeof text === 'string' && (KEY_SCOPES as readonly string[]).includes(text);

/** The scopes a key holds: every one for a test key; for a live key, those granted to it. */
export function keyScopes(mode: KeyMode, granted: { refunds_granted_at: Date | null }): KeyScope[] {
  if (mode === 'test') return [...KEY_SCOPES];
  return granted.refunds_granted_at === null ? [] : ['refunds'];
}
