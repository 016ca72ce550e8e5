/**
 * The operator's key commands beyond making, revoking and rolling (docs/API.md#key-scopes): a live
 * key made with the `refunds` scope (`keys create --mode live --scope refunds`), the scope granted or
 * withdrawn later (`keys scope --key K --grant refunds` / `--withdraw refunds`), and a merchant's keys
 * with their scopes (`keys list --merchant M`). A grant or a withdrawal is written to the merchant's
 * audit log (as the operator's), and a grant is mailed to the merchant's owner, as the dashboard does.
 */
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { recordAudit } from '../db/audit.ts';
import { merchantUserEmails } from '../db/accounts.ts';
import { createMerchantKey, listMerchantKeys, setKeyScope } from '../merchants/onboarding.ts';
import { parseKey } from '../merchants/keys.ts';
import { required, UsageError, type Command, type Flags } from './onboarding-commands.ts';

/** Who the audit log names for the operator's own actions (there is no signed-in user). */
const OPERATOR = { address: 'operator', userAgent: 'dargah operator CLI' };

function scopesOf(flags: Flags): string[] {
  const value = flags.scope;
  if (value === undefined) return [];
  const list = (Array.isArray(value) ? value : [String(value)]).flatMap((v) => v.split(','));
  return list.map((s) => s.trim()).filter((s) => s !== '');
}

/** The grant recorded in the merchant's audit log and mailed to its owner (the mail printed on stderr without SMTP_URL). */
async function recordGrant(db: Db, config: Config, merchantId: string, prefix: string, grant: boolean): Promise<void> {
  const detail = `${prefix}…: refunds, by the operator`;
  await recordAudit(db, {
    action: grant ? 'key_scope_granted' : 'key_scope_withdrawn',
    merchantId,
    detail,
    ...OPERATOR,
  });
  if (!grant) return;
  // Loaded here: the other commands start without the mail transport.
  const [{ createMailer }, { mailOwner }] = await Promise.all([
    import('../adapters/mailer.ts'),
    import('../accounts/owner-mail.ts'),
  ]);
  const mailer = createMailer(config, (text) => process.stderr.write(text));
  try {
    for (const to of await merchantUserEmails(db, merchantId)) {
      await mailOwner({ db, mailer, baseUrl: config.PUBLIC_BASE_URL }, to, 'fa', {
        kind: 'live_action_done',
        action: 'refund_scope',
        detail,
      });
    }
  } finally {
    mailer.close();
  }
}

export const KEY_COMMANDS: Record<string, Command> = {
  'keys create': async (db, config, flags) => {
    const merchantId = required(flags, 'merchant');
    const key = await createMerchantKey(
      db,
      merchantId,
      required(flags, 'mode'),
      config.TEST_KEYS_PER_MERCHANT,
      scopesOf(flags),
    );
    if (key.mode === 'live' && key.scopes.includes('refunds'))
      await recordGrant(db, config, merchantId, parseKey(key.key)!.prefix, true);
    return key;
  },
  'keys scope': async (db, config, flags) => {
    const grant = flags.grant;
    const withdraw = flags.withdraw;
    if ((typeof grant === 'string') === (typeof withdraw === 'string'))
      throw new UsageError('give one of --grant SCOPE or --withdraw SCOPE');
    const scope = typeof grant === 'string' ? grant : (withdraw as string);
    const result = await setKeyScope(db, undefined, required(flags, 'key'), scope, typeof grant === 'string');
    await recordGrant(db, config, result.merchant_id, result.prefix, typeof grant === 'string');
    return result;
  },
  'keys list': async (db, _config, flags) => {
    const keys = await listMerchantKeys(db, required(flags, 'merchant'));
    return {
      keys: keys.map((k) => ({
        key_id: k.id,
        mode: k.mode,
        prefix: k.prefix,
        scopes: k.scopes,
        created_at: k.created_at.toISOString(),
        revoked_at: k.revoked_at?.toISOString() ?? null,
        expires_at: k.expires_at?.toISOString() ?? null,
        last_used_at: k.last_used_at?.toISOString() ?? null,
      })),
    };
  },
};

export const KEY_OPTIONS = {
  scope: { type: 'string', multiple: true },
  grant: { type: 'string' },
  withdraw: { type: 'string' },
} as const;
