/**
 * The email a dashboard user gets about their own account's security: a live
 * action refused or done, a change of two-step sign-in asked for (with its
 * confirmation link) or made, a password reset that left two-step sign-in on,
 * a sign-up tried with their address. Mail that anyone can cause without the
 * account (a refusal, a sign-up with the address) is capped per recipient
 * (UNSOLICITED_MAIL_PER_HOUR), so the gateway cannot be made to bomb a mailbox.
 */
import { createHash } from 'node:crypto';
import type { Mailer } from '../adapters/mailer.ts';
import type { Db } from '../db/database.ts';
import { hitCounter, windowStartOf } from '../db/rate-limits.ts';

/** The actions that need a recent second factor (src/accounts/step-up.ts); each is named in the owner's email and the audit log. */
export const LIVE_ACTIONS = [
  'live_key',
  'live_refund',
  'live_webhook',
  'settlement_account',
  'live_link',
  'split_beneficiary',
  'refund_scope',
  'direct_debit_cancel',
] as const;
export type LiveAction = (typeof LIVE_ACTIONS)[number];

type Lang = 'fa' | 'en';

/** Emails one address may get per hour that someone else can cause (refused live actions, sign-ups with the address); more are not sent. */
export const UNSOLICITED_MAIL_PER_HOUR = 3;
const HOUR_MS = 3_600_000;

const ACTION_WORDS: Record<LiveAction, Record<Lang, string>> = {
  live_key: { en: 'create or roll a live API key', fa: 'ساخت یا تعویض کلید API واقعی' },
  live_refund: { en: 'refund a live payment', fa: 'بازپرداخت یک پرداخت واقعی' },
  live_webhook: {
    en: 'add or change a live webhook endpoint or its secret',
    fa: 'افزودن یا تغییر نشانی وب‌هوک واقعی یا رمز آن',
  },
  settlement_account: { en: 'change the account settlements are paid to', fa: 'تغییر حساب تسویه' },
  live_link: { en: 'create a live payment link', fa: 'ساخت لینک پرداخت واقعی' },
  split_beneficiary: { en: 'register an account split payments are paid to', fa: 'ثبت حساب ذی‌نفع تسهیم' },
  refund_scope: { en: 'allow a live API key to create refunds', fa: 'دادن اجازهٔ بازپرداخت به یک کلید API واقعی' },
  direct_debit_cancel: {
    en: 'cancel a live subscription or direct debit mandate',
    fa: 'لغو اشتراک یا قرارداد پرداخت مستقیم واقعی',
  },
};

export type OwnerNotice =
  | { kind: 'live_action_refused'; action: LiveAction }
  | { kind: 'live_action_done'; action: LiveAction; detail: string }
  | { kind: 'two_factor_change_requested'; change: 'two_factor_on' | 'two_factor_off' | 'recovery_codes'; link: string }
  | { kind: 'two_factor_changed'; change: 'two_factor_on' | 'two_factor_off' | 'recovery_codes' }
  | { kind: 'password_reset_two_factor_kept' }
  | { kind: 'sign_up_tried' };

const CHANGE_WORDS: Record<'two_factor_on' | 'two_factor_off' | 'recovery_codes', Record<Lang, string>> = {
  two_factor_on: { en: 'turn two-step sign-in on', fa: 'فعال کردن ورود دومرحله‌ای' },
  two_factor_off: { en: 'turn two-step sign-in off', fa: 'غیرفعال کردن ورود دومرحله‌ای' },
  recovery_codes: { en: 'make new recovery codes', fa: 'ساخت کدهای بازیابی تازه' },
};

/** The subject and text of a notice in the user's language. */
export function ownerNoticeMail(notice: OwnerNotice, lang: Lang, baseUrl: string): { subject: string; text: string } {
  const en = lang === 'en';
  const reset = `${baseUrl}/dashboard/forgot-password${en ? '?lang=en' : ''}`;
  const notYou = en
    ? `If it was not you, someone knows your password: reset it now at ${reset}\n`
    : `اگر این کار شما نبوده، کسی گذرواژهٔ شما را می‌داند: همین حالا آن را بازنشانی کنید: ${reset}\n`;
  switch (notice.kind) {
    case 'live_action_refused': {
      const what = ACTION_WORDS[notice.action][lang];
      return en
        ? {
            subject: 'A live action was refused on your Dargah account',
            text: `Someone signed in to your Dargah account with your password tried to ${what}. It was refused: live actions need two-step sign-in, proved in the same session.\n\n${notYou}`,
          }
        : {
            subject: 'یک کار واقعی در حساب درگاه شما رد شد',
            text: `کسی که با گذرواژهٔ شما وارد حساب درگاه شده بود خواست این کار را بکند: ${what}. این کار رد شد: کارهای واقعی به ورود دومرحله‌ای در همان نشست نیاز دارند.\n\n${notYou}`,
          };
    }
    case 'live_action_done': {
      const what = ACTION_WORDS[notice.action][lang];
      return en
        ? {
            subject: 'A live change on your Dargah account',
            text: `This was done on your Dargah account: ${what} (${notice.detail}).\n\n${notYou}`,
          }
        : {
            subject: 'تغییری واقعی در حساب درگاه شما',
            text: `این کار در حساب درگاه شما انجام شد: ${what} (${notice.detail}).\n\n${notYou}`,
          };
    }
    case 'two_factor_change_requested': {
      const what = CHANGE_WORDS[notice.change][lang];
      return en
        ? {
            subject: 'Confirm the change of your Dargah two-step sign-in',
            text: `You asked to ${what} on your Dargah account. To go on, open this link within 1 hour, signed in to the dashboard:\n${notice.link}\n\n${notYou}`,
          }
        : {
            subject: 'تأیید تغییر ورود دومرحله‌ای درگاه',
            text: `درخواست ${what} در حساب درگاه شما رسید. برای ادامه، این پیوند را تا ۱ ساعت دیگر، در حالی که وارد پیشخوان شده‌اید، باز کنید:\n${notice.link}\n\n${notYou}`,
          };
    }
    case 'two_factor_changed': {
      const what = CHANGE_WORDS[notice.change][lang];
      return en
        ? {
            subject: 'Your Dargah two-step sign-in changed',
            text: `This was done on your Dargah account: ${what}.\n\n${notYou}`,
          }
        : {
            subject: 'ورود دومرحله‌ای درگاه شما تغییر کرد',
            text: `این کار در حساب درگاه شما انجام شد: ${what}.\n\n${notYou}`,
          };
    }
    case 'password_reset_two_factor_kept':
      return en
        ? {
            subject: 'Your Dargah password was reset; two-step sign-in stays on',
            text: `The password of your Dargah account was reset and every session ended. Two-step sign-in stays on with the same authenticator app. If you did not set that app up yourself, sign in with a recovery code and turn two-step sign-in off and on again, or ask the operator for help.\n`,
          }
        : {
            subject: 'گذرواژهٔ درگاه شما بازنشانی شد؛ ورود دومرحله‌ای فعال می‌ماند',
            text: `گذرواژهٔ حساب درگاه شما بازنشانی شد و همهٔ نشست‌ها پایان یافت. ورود دومرحله‌ای با همان برنامهٔ احراز هویت فعال می‌ماند. اگر آن برنامه را خودتان راه‌اندازی نکرده‌اید، با یک کد بازیابی وارد شوید و ورود دومرحله‌ای را غیرفعال و دوباره فعال کنید، یا از گردانندهٔ درگاه کمک بخواهید.\n`,
          };
    case 'sign_up_tried':
      return en
        ? {
            subject: 'Someone tried to sign up with your address',
            text: `This address already has a Dargah account. Sign in at ${baseUrl}/dashboard/sign-in?lang=en\n`,
          }
        : {
            subject: 'تلاش برای ثبت‌نام با نشانی شما',
            text: `این نشانی از قبل حساب درگاه دارد. از این پیوند وارد شوید: ${baseUrl}/dashboard/sign-in\n`,
          };
  }
}

/** Notices anyone can cause without the account: capped per recipient. */
const unsolicited = (notice: OwnerNotice) => notice.kind === 'live_action_refused' || notice.kind === 'sign_up_tried';

/**
 * Whether a notice to `to` may be sent now: always for a notice of what the
 * account itself did; for one anyone can cause, while the recipient's count
 * this hour (counted first, atomically) is within UNSOLICITED_MAIL_PER_HOUR.
 */
export async function ownerNoticeAllowed(db: Db, to: string, notice: OwnerNotice): Promise<boolean> {
  if (!unsolicited(notice)) return true;
  const count = await hitCounter(
    db,
    `unsolicited-mail:${createHash('sha256').update(to).digest('hex').slice(0, 40)}`,
    windowStartOf(Date.now(), HOUR_MS),
  );
  return count <= UNSOLICITED_MAIL_PER_HOUR;
}

/** Mails a notice to the account's owner (its user's confirmed address), within the cap of ownerNoticeAllowed. */
export async function mailOwner(
  deps: { db: Db; mailer: Mailer; baseUrl: string },
  to: string,
  lang: Lang,
  notice: OwnerNotice,
): Promise<void> {
  if (!(await ownerNoticeAllowed(deps.db, to, notice))) return;
  await deps.mailer.send({ to, ...ownerNoticeMail(notice, lang, deps.baseUrl) });
}
