/**
 * The refund claim page (docs/PAGES.md#refund-claims): the customer of a `payer_card` refund types the
 * card that paid, and the refund is paid to that card's account. Rendered like every hosted page
 * (views.ts): Eta, escaped output only, no script; Persian by default, English with `?lang=en`.
 */
import type { Refund } from '../domain/refund-schemas.ts';
import { localDigits } from '../http/words.ts';
import { formatAmount, type Lang } from './i18n.ts';
import { render, type DetailRow } from './views.ts';

const fa = {
  title: 'دریافت مبلغ بازگشتی',
  heading: 'بازگشت وجه از',
  intro:
    'این مبلغ فقط به حساب همان کارتی واریز می‌شود که با آن پرداخت کرده‌اید. شمارهٔ آن کارت را وارد کنید؛ بانک صاحب حساب را از روی کارت می‌شناسد و مبلغ با انتقال پایا به همان حساب واریز می‌شود.',
  cardLabel: 'شمارهٔ ۱۶ رقمی کارتی که با آن پرداخت کردید',
  cardHint: 'فقط شمارهٔ کارت؛ رمز، CVV2 یا تاریخ انقضا نخواهید.',
  submit: 'واریز به حساب این کارت',
  privacy: 'شمارهٔ کارت فقط برای تطبیق و استعلام حساب به کار می‌رود و ذخیره نمی‌شود.',
  paidWith: 'کارت پرداخت‌کننده',
  status: 'وضعیت',
  owner: 'صاحب حساب',
  iban: 'شبای مقصد',
  invalidCard: 'شمارهٔ کارت باید ۱۶ رقم باشد.',
  wrongCardTitle: 'این کارت، کارت پرداخت‌کننده نیست',
  wrongCardText: 'مبلغ فقط به حساب کارتی واریز می‌شود که با آن پرداخت شده است. تلاش‌های باقی‌مانده:',
  lockedTitle: 'تلاش‌ها تمام شد',
  lockedText:
    'چند بار کارت نادرست وارد شد و این درخواست قفل شد. برای دریافت مبلغ با فروشگاه تماس بگیرید؛ چیزی از حساب کسی کسر یا به آن واریز نشده است.',
  unknownTitle: 'کارت پرداخت‌کننده معلوم نیست',
  unknownText:
    'بانک شمارهٔ کارت پرداخت‌کننده را به درگاه نگفته است، پس این بازگشت با کارت قابل دریافت نیست. با فروشگاه تماس بگیرید.',
  refusedTitle: 'حساب این کارت پیدا نشد',
  refusedText:
    'سامانهٔ استعلام بانکی حسابی برای این کارت نشناخت. اگر کارت باطل یا تعویض شده است، با فروشگاه تماس بگیرید.',
  noProviderTitle: 'دریافت با کارت فعلاً ممکن نیست',
  noProviderText: 'سامانهٔ استعلام حساب برای این درگاه پیکربندی نشده است. با فروشگاه تماس بگیرید.',
  unavailableTitle: 'سامانهٔ استعلام پاسخ نمی‌دهد',
  unavailableText: 'چیزی ثبت نشد و تلاشی از شما کم نشد؛ چند دقیقهٔ دیگر دوباره امتحان کنید.',
  doneTitle: 'درخواست ثبت شد',
  doneText: 'مبلغ با انتقال پایا به حساب زیر واریز می‌شود؛ پایا معمولاً تا یک روز کاری طول می‌کشد.',
  succeededTitle: 'مبلغ واریز شد',
  succeededText: 'مبلغ به حساب زیر واریز شد.',
  failedTitle: 'بازگشت انجام نشد',
  failedText: 'این بازگشت وجه لغو یا رد شده است. برای پیگیری با فروشگاه تماس بگیرید.',
  approvalTitle: 'در انتظار تأیید درگاه',
  approvalText:
    'این بازگشت پیش از دریافت نیاز به تأیید درگاه دارد. پس از تأیید، از همین صفحه می‌توانید آن را دریافت کنید.',
  statuses: {
    awaiting_approval: 'در انتظار تأیید درگاه',
    awaiting_payer: 'در انتظار شما',
    pending: 'در حال واریز',
    succeeded: 'واریز شد',
    failed: 'انجام نشد',
  },
};

type Words = typeof fa;

const en: Words = {
  title: 'Receive your refund',
  heading: 'Refund from',
  intro:
    'This refund is paid only to the account of the card you paid with. Type that card’s number: the bank names the account from the card, and the amount is sent there by a Paya transfer.',
  cardLabel: 'The 16-digit number of the card you paid with',
  cardHint: 'The card number only: never give your PIN, CVV2 or expiry date.',
  submit: 'Pay it to this card’s account',
  privacy: 'The card number is used only to match and look up its account, and is not stored.',
  paidWith: 'Card that paid',
  status: 'Status',
  owner: 'Account owner',
  iban: 'Destination IBAN',
  invalidCard: 'The card number must have 16 digits.',
  wrongCardTitle: 'This is not the card that paid',
  wrongCardText: 'The refund is paid only to the account of the card that paid. Attempts left:',
  lockedTitle: 'No attempts left',
  lockedText:
    'A wrong card was typed too many times and this refund is locked. Contact the shop to receive it; no money moved to or from anyone.',
  unknownTitle: 'The paying card is not known',
  unknownText:
    'The bank did not tell the gateway which card paid, so this refund cannot be received with a card. Contact the shop.',
  refusedTitle: 'No account found for this card',
  refusedText:
    'The banking inquiry service knows no account for this card. If the card was cancelled or replaced, contact the shop.',
  noProviderTitle: 'Refunds to a card are not available right now',
  noProviderText: 'No account inquiry service is configured for this gateway. Contact the shop.',
  unavailableTitle: 'The inquiry service is not answering',
  unavailableText: 'Nothing was recorded and no attempt was used; try again in a few minutes.',
  doneTitle: 'Your request is recorded',
  doneText: 'The amount is sent by Paya transfer to the account below; Paya usually takes up to one working day.',
  succeededTitle: 'The refund was paid',
  succeededText: 'The amount was paid to the account below.',
  failedTitle: 'The refund was not made',
  failedText: 'This refund was cancelled or rejected. Contact the shop about it.',
  approvalTitle: 'Waiting for the gateway’s approval',
  approvalText: 'This refund needs the gateway’s approval first. Once approved, you can receive it on this page.',
  statuses: {
    awaiting_approval: 'Waiting for approval',
    awaiting_payer: 'Waiting for you',
    pending: 'Being paid',
    succeeded: 'Paid',
    failed: 'Not made',
  },
};

export const claimWords = (lang: Lang): Words => (lang === 'fa' ? fa : en);

/** What the page says above (or instead of) the form. */
export type ClaimNotice =
  | { why: 'wrong_card'; attemptsLeft: number }
  | { why: 'invalid_card' | 'locked' | 'card_unknown' | 'identity_refused' | 'no_provider' | 'unavailable' };

export interface ClaimPageInput {
  refund: Refund;
  merchantName: string;
  mode: 'test' | 'live';
  cardPan: string | null;
  lang: Lang;
  /** The page's address without its language (`/refund-claims/<id>?t=<token>`). */
  address: string;
  claimToken: string;
  csrfToken?: string;
  notice?: ClaimNotice;
}

export function claimPage(input: ClaimPageInput): string {
  const { refund, lang } = input;
  const w = claimWords(lang);
  const details: DetailRow[] = [{ label: w.status, value: w.statuses[refund.status], id: 'refund-status' }];
  if (input.cardPan !== null)
    details.push({ label: w.paidWith, value: localDigits(input.cardPan, lang), id: 'paid-with', ltr: true });
  if (refund.owner_name) details.push({ label: w.owner, value: refund.owner_name, id: 'owner-name' });
  if (refund.destination_iban !== null && refund.status !== 'awaiting_payer')
    details.push({ label: w.iban, value: refund.destination_iban, id: 'destination-iban', ltr: true });

  let notice: { kind: string; heading: string; text: string; why?: string } | undefined;
  let error: string | undefined;
  const n = input.notice;
  if (n?.why === 'invalid_card') error = w.invalidCard;
  else if (n?.why === 'wrong_card')
    notice = {
      kind: 'failed',
      heading: w.wrongCardTitle,
      text: `${w.wrongCardText} ${localDigits(String(n.attemptsLeft), lang)}`,
      why: n.why,
    };
  else if (n !== undefined) {
    const [heading, text] = (
      {
        locked: [w.lockedTitle, w.lockedText],
        card_unknown: [w.unknownTitle, w.unknownText],
        identity_refused: [w.refusedTitle, w.refusedText],
        no_provider: [w.noProviderTitle, w.noProviderText],
        unavailable: [w.unavailableTitle, w.unavailableText],
      } as const
    )[n.why];
    notice = { kind: 'failed', heading, text, why: n.why };
  }
  if (notice === undefined && refund.status !== 'awaiting_payer') {
    const [kind, heading, text]: [string, string, string] =
      refund.status === 'pending'
        ? ['pending', w.doneTitle, w.doneText]
        : refund.status === 'succeeded'
          ? ['success', w.succeededTitle, w.succeededText]
          : refund.status === 'failed'
            ? ['failed', w.failedTitle, w.failedText]
            : ['pending', w.approvalTitle, w.approvalText];
    notice = { kind, heading, text };
  }
  const formShown =
    refund.status === 'awaiting_payer' &&
    input.csrfToken !== undefined &&
    n?.why !== 'locked' &&
    n?.why !== 'card_unknown' &&
    n?.why !== 'no_provider';
  const other = lang === 'fa' ? 'en' : 'fa';
  const withLang = (l: Lang) => (l === 'en' ? `${input.address}&lang=en` : input.address);
  return render(
    'refund-claim',
    { lang },
    {
      title: w.title,
      testMode: input.mode === 'test',
      switchHref: withLang(other),
      w,
      merchantName: input.merchantName,
      amount: formatAmount(refund.amount, lang),
      details,
      notice,
      form: formShown
        ? { action: withLang(lang), csrfToken: input.csrfToken, claimToken: input.claimToken, error }
        : undefined,
    },
  );
}
