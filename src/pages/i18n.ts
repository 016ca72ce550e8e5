/**
 * Words of the hosted pages. Persian (right to left) is the default, English
 * is chosen with `?lang=en`. Both dictionaries have exactly the same keys:
 * the English one is typed from the Persian one.
 */
import { rialsToToman } from '../domain/payment.ts';
import { LOCALE, SHARED_WORDS, type Lang } from '../http/words.ts';

export type { Lang };

/** `?lang=en` selects English; anything else (or nothing) is Persian. */
export function langFrom(query: unknown): Lang {
  return query === 'en' ? 'en' : 'fa';
}

/** The query string that keeps the language across links, form posts and redirects. */
export function langQuery(lang: Lang): string {
  return lang === 'en' ? '?lang=en' : '';
}

const fa = {
  ...SHARED_WORDS.fa,
  payTitle: 'پرداخت',
  payHeading: 'پرداخت به',
  merchant: 'پذیرنده',
  amount: 'مبلغ',
  description: 'توضیحات',
  reference: 'شماره سفارش',
  trackingCode: 'کد پیگیری',
  payBefore: 'مهلت پرداخت',
  tehranTime: 'به وقت تهران',
  rrn: 'شماره مرجع',
  card: 'کارت',
  allowedCards: 'فقط با این کارت‌ها',
  allowedCardsNote: 'پرداخت با کارت دیگر پذیرفته نمی‌شود و مبلغ به حساب شما برمی‌گردد.',
  nationalCode: 'کد ملی دارندهٔ حساب',
  nationalCodeNote: 'کارت باید به نام دارندهٔ این کد ملی باشد.',
  bankTitle: 'پرداخت از طریق بانک',
  bankHint: 'با دکمهٔ پرداخت به صفحهٔ امن بانک می‌روید و پس از پرداخت به اینجا برمی‌گردید.',
  payButton: 'پرداخت',
  bankRedirectTitle: 'رفتن به صفحهٔ بانک',
  bankRedirectText: 'برای پرداخت، با این دکمه به صفحهٔ امن بانک بروید؛ پس از پرداخت به اینجا برمی‌گردید.',
  bankContinue: 'ادامه در صفحهٔ بانک',
  outcome_success: 'پرداخت موفق',
  outcome_failure: 'پرداخت ناموفق',
  outcome_cancel: 'انصراف از پرداخت',
  outcome_delay: 'تأخیر در تأیید بانک',
  liveHeadline: 'پرداخت واقعی در دسترس نیست',
  liveText:
    'هیچ بانک واقعی برای این درگاه پیکربندی نشده است؛ این پرداخت فعلاً امکان‌پذیر نیست و مبلغی از حساب شما کسر نمی‌شود.',
  bankBusyTitle: 'بانک در دسترس نیست',
  tooManyTitle: 'درخواست‌ها بیش از حد است',
  tooManyText:
    'در این چند لحظه درخواست‌های زیادی از اینجا رسیده است. مبلغی از حساب شما کسر نشده است؛ یک دقیقهٔ دیگر دوباره امتحان کنید.',
  notLiveTitle: 'این فروشگاه پرداخت واقعی نمی‌پذیرد',
  notLiveText:
    'این پذیرنده اکنون اجازهٔ دریافت پرداخت واقعی ندارد؛ پرداخت انجام نمی‌شود و مبلغی از حساب شما کسر نمی‌شود.',
  bankBusyText:
    'هیچ‌یک از بانک‌ها هم‌اکنون پاسخ نمی‌دهند. مبلغی از حساب شما کسر نشده است؛ چند لحظهٔ دیگر دوباره «پرداخت» را بزنید.',
  processingTitle: 'در حال پردازش',
  processingHeadline: 'در حال دریافت پاسخ بانک…',
  processingText: 'این صفحه خودش به‌روز می‌شود؛ لطفاً آن را نبندید.',
  refreshNow: 'به‌روزرسانی',
  backToPayment: 'بازگشت به صفحهٔ پرداخت',
  resultTitle: 'نتیجهٔ پرداخت',
  successHeadline: 'پرداخت با موفقیت انجام شد',
  successText: 'سفارش شما پس از تأیید پذیرنده نهایی می‌شود.',
  alreadyPaidHeadline: 'این پرداخت قبلاً انجام شده است',
  alreadyPaidText: 'امکان پرداخت دوباره وجود ندارد.',
  pendingHeadline: 'تأیید بانک با تأخیر انجام می‌شود',
  pendingText:
    'بانک پرداخت را پذیرفته اما تأیید آن کمی طول می‌کشد. پذیرنده پس از تأیید بانک سفارش شما را نهایی می‌کند.',
  failedHeadline: 'پرداخت ناموفق بود',
  failedText: 'بانک این پرداخت را رد کرد. مبلغی از حساب شما کسر نشده است.',
  canceledHeadline: 'پرداخت لغو شد',
  canceledText: 'شما این پرداخت را لغو کردید. مبلغی از حساب شما کسر نشده است.',
  canceledByMerchantText: 'فروشگاه این پرداخت را لغو کرد. مبلغی از حساب شما کسر نشده است.',
  expiredHeadline: 'مهلت پرداخت به پایان رسیده است',
  expiredText: 'این صفحهٔ پرداخت دیگر قابل استفاده نیست. برای پرداخت، به فروشگاه برگردید و دوباره اقدام کنید.',
  reversedHeadline: 'مبلغ به حساب شما بازگشت',
  reversedText: 'پذیرنده پرداخت را در مهلت مقرر تأیید نکرد و کل مبلغ خودکار به کارت شما بازگردانده شد.',
  refundedHeadline: 'این پرداخت بازپرداخت شده است',
  partiallyRefundedHeadline: 'بخشی از این پرداخت بازپرداخت شده است',
  refundedText: 'پذیرنده مبلغ بازپرداخت را به کارت شما برگردانده است.',
  noPayAgain: 'امکان پرداخت دوباره وجود ندارد.',
  returnTo: 'بازگشت به',
  redirectNotice: 'تا چند ثانیه دیگر خودکار به سایت پذیرنده منتقل می‌شوید.',
  unverifiedDomain: 'پرداخت آزمایشی: پذیرنده مالکیت دامنه‌ی بازگشت را هنوز تأیید نکرده است. بازگشت به:',
  notFoundTitle: 'پرداخت پیدا نشد',
  notFoundText: 'این نشانی به هیچ پرداختی اشاره نمی‌کند. نشانی را بررسی کنید یا به فروشگاه برگردید.',
  forbiddenText:
    'این فرم از صفحهٔ پرداخت ارسال نشده یا کهنه شده است. صفحهٔ پرداخت را دوباره باز کنید و دوباره تلاش کنید.',
  badRequestTitle: 'درخواست نامعتبر',
  badRequestText: 'فرم ارسال‌شده قابل پردازش نبود. صفحهٔ پرداخت را دوباره باز کنید.',
  linkAmountLabel: 'مبلغ (ریال)',
  linkAmountRange: 'مبلغ دلخواه شما، از',
  linkAmountRangeTo: 'تا',
  linkNameLabel: 'نام و نام خانوادگی',
  linkMobileLabel: 'شمارهٔ موبایل',
  linkNoteLabel: 'توضیح برای فروشنده',
  linkOptional: '(اختیاری)',
  linkContinue: 'ادامه و پرداخت',
  linkFixHint: 'لطفاً موارد مشخص‌شده را اصلاح کنید.',
  linkFieldRequired: 'این مورد لازم است.',
  linkFieldInvalid: 'این مقدار پذیرفته نیست.',
  linkAmountInvalid: 'مبلغی در بازهٔ گفته‌شده وارد کنید.',
  linkMobileInvalid: 'شمارهٔ موبایل را مثل ۰۹۱۲۱۲۳۴۵۶۷ وارد کنید.',
  linkInactiveHeadline: 'این لینک پرداخت غیرفعال شده است',
  linkExpiredHeadline: 'مهلت این لینک پرداخت تمام شده است',
  linkUsedUpHeadline: 'ظرفیت این لینک پرداخت تکمیل شده است',
  linkUnavailableText: 'با این لینک دیگر نمی‌توان پرداخت کرد. برای پرداخت با فروشنده تماس بگیرید.',
  linkNotFoundTitle: 'لینک پرداخت پیدا نشد',
  linkNotFoundText: 'این نشانی به هیچ لینک پرداختی اشاره نمی‌کند. نشانی را بررسی کنید.',
  receiptTitle: 'رسید پرداخت',
  receiptHeadline: 'پرداخت شما انجام و تأیید شد',
  receiptText: 'این رسید را نگه دارید؛ فروشنده پرداخت شما را دریافت کرده است.',
  receiptPayee: 'دریافت‌کننده',
  receiptFor: 'بابت',
  receiptPaidAt: 'زمان پرداخت',
  linkTryAgain: 'بازگشت به صفحهٔ پرداخت',
  mandateTitle: 'امضای قرارداد پرداخت مستقیم',
  mandateHeading: 'قرارداد پرداخت مستقیم با',
  mandateChoose: 'بانک خود را انتخاب کنید',
  mandateIntro:
    'با امضای این قرارداد در بانک خود، این فروشنده می‌تواند در حدود زیر، بی‌آنکه هر بار پرداخت جداگانه‌ای انجام دهید، از حساب شما برداشت کند.',
  mandateMaxAmount: 'سقف هر برداشت',
  mandateDailyCount: 'برداشت در روز',
  mandateMonthlyCount: 'برداشت در ماه',
  mandateCount: (count: string) => `حداکثر ${count} بار`,
  mandateExpires: 'اعتبار قرارداد تا',
  mandateBanksTitle: 'امضا در بانک',
  mandateBanksHint: 'با انتخاب بانک به صفحهٔ امن آن می‌روید تا قرارداد را امضا کنید؛ پس از امضا به فروشگاه برمی‌گردید.',
  mandatePreparingHeadline: 'در حال آماده‌سازی قرارداد…',
  mandatePreparingText: 'این صفحه خودش به‌روز می‌شود؛ لطفاً آن را نبندید.',
  mandateEndedHeadline: 'این قرارداد دیگر در انتظار امضا نیست',
  mandateEndedText: 'این قرارداد پیش‌تر امضا، رد یا لغو شده یا مهلتش گذشته است. برای قرارداد تازه به فروشگاه برگردید.',
  mandateNotFoundTitle: 'قرارداد پیدا نشد',
  mandateNotFoundText:
    'این نشانی به هیچ قرارداد پرداخت مستقیمی اشاره نمی‌کند. نشانی را بررسی کنید یا به فروشگاه برگردید.',
  mandateReturnTitle: 'بازگشت به فروشگاه',
  mandateReturnHeadline: 'در حال بازگشت به فروشگاه…',
  mandateReturnText: 'اگر تا چند لحظهٔ دیگر منتقل نشدید، دکمهٔ زیر را بزنید.',
  mandateBack: 'بازگشت به فروشگاه',
};

export type Strings = typeof fa;

const en: Strings = {
  ...SHARED_WORDS.en,
  payTitle: 'Payment',
  payHeading: 'Pay',
  merchant: 'Merchant',
  amount: 'Amount',
  description: 'Description',
  reference: 'Order reference',
  trackingCode: 'Tracking code',
  payBefore: 'Pay before',
  tehranTime: 'Tehran time',
  rrn: 'Reference number (RRN)',
  card: 'Card',
  allowedCards: 'Only with these cards',
  allowedCardsNote: 'A payment with another card is not accepted; its money goes back to your account.',
  nationalCode: "Account holder's national code",
  nationalCodeNote: 'The card must be of the holder of this national code.',
  bankTitle: 'Pay at the bank',
  bankHint: 'Pay takes you to the bank’s secure page; after paying you come back here.',
  payButton: 'Pay',
  bankRedirectTitle: 'On to the bank',
  bankRedirectText: 'This button takes you to the bank’s secure page to pay; after paying you come back here.',
  bankContinue: 'Continue to the bank',
  outcome_success: 'Successful payment',
  outcome_failure: 'Failed payment',
  outcome_cancel: 'Cancel the payment',
  outcome_delay: 'Delay in verification',
  liveHeadline: 'Live payment not available',
  liveText: 'No live bank is configured for this gateway, so this payment cannot be made now. No money will be taken.',
  bankBusyTitle: 'The bank is not answering',
  tooManyTitle: 'Too many requests',
  tooManyText: 'Too many requests came from here in a short time. No money was taken; try again in a minute.',
  notLiveTitle: 'This shop takes no live payments',
  notLiveText: 'This merchant may not take live payments now, so this payment cannot be made. No money will be taken.',
  bankBusyText: 'None of the banks can take the payment right now. No money was taken; press Pay again in a moment.',
  processingTitle: 'Processing',
  processingHeadline: 'Waiting for the bank’s answer…',
  processingText: 'This page refreshes itself; please keep it open.',
  refreshNow: 'Refresh now',
  backToPayment: 'Back to the payment page',
  resultTitle: 'Payment result',
  successHeadline: 'Payment successful',
  successText: 'Your order is final once the merchant confirms it.',
  alreadyPaidHeadline: 'This payment has already been paid',
  alreadyPaidText: 'It cannot be paid again.',
  pendingHeadline: 'The bank’s confirmation is delayed',
  pendingText:
    'The bank accepted the payment but its confirmation takes a little longer. The merchant will finalise your order once the bank confirms.',
  failedHeadline: 'Payment failed',
  failedText: 'The bank declined the payment. No money was taken.',
  canceledHeadline: 'Payment canceled',
  canceledText: 'You canceled this payment. No money was taken.',
  canceledByMerchantText: 'The shop canceled this payment. No money was taken.',
  expiredHeadline: 'This payment has expired',
  expiredText: 'This payment page can no longer be used. To pay, go back to the shop and start again.',
  reversedHeadline: 'The amount was returned to you',
  reversedText:
    'The merchant did not confirm the payment in time, so the full amount was returned to your card automatically.',
  refundedHeadline: 'This payment was refunded',
  partiallyRefundedHeadline: 'Part of this payment was refunded',
  refundedText: 'The merchant returned the refunded amount to your card.',
  noPayAgain: 'It cannot be paid again.',
  returnTo: 'Return to',
  redirectNotice: 'You will be taken back to the merchant automatically in a few seconds.',
  unverifiedDomain: 'Test payment: the merchant has not verified that it owns the domain you return to:',
  notFoundTitle: 'Payment not found',
  notFoundText: 'This address does not point to any payment. Check the link, or go back to the shop.',
  forbiddenText: 'This form did not come from the payment page, or it is stale. Open the payment page again and retry.',
  badRequestTitle: 'Invalid request',
  badRequestText: 'The form could not be processed. Open the payment page again.',
  linkAmountLabel: 'Amount (rials)',
  linkAmountRange: 'An amount of your choice, from',
  linkAmountRangeTo: 'to',
  linkNameLabel: 'Full name',
  linkMobileLabel: 'Mobile number',
  linkNoteLabel: 'Note to the seller',
  linkOptional: '(optional)',
  linkContinue: 'Continue to payment',
  linkFixHint: 'Please correct the fields marked below.',
  linkFieldRequired: 'This is required.',
  linkFieldInvalid: 'This value is not accepted.',
  linkAmountInvalid: 'Enter an amount within the range shown.',
  linkMobileInvalid: 'Enter a mobile number like 09121234567.',
  linkInactiveHeadline: 'This payment link was deactivated',
  linkExpiredHeadline: 'This payment link has expired',
  linkUsedUpHeadline: 'This payment link has taken all its payments',
  linkUnavailableText: 'It can no longer be paid. Contact the seller to pay.',
  linkNotFoundTitle: 'Payment link not found',
  linkNotFoundText: 'This address does not point to any payment link. Check it and try again.',
  receiptTitle: 'Payment receipt',
  receiptHeadline: 'Your payment is done and confirmed',
  receiptText: 'Keep this receipt; the seller has received your payment.',
  receiptPayee: 'Paid to',
  receiptFor: 'For',
  receiptPaidAt: 'Paid at',
  linkTryAgain: 'Back to the payment link',
  mandateTitle: 'Sign a direct debit mandate',
  mandateHeading: 'Direct debit mandate with',
  mandateChoose: 'Choose your bank',
  mandateIntro:
    'Once you sign this mandate at your bank, this shop may take money from your account within the limits below, without a separate payment each time.',
  mandateMaxAmount: 'At most per debit',
  mandateDailyCount: 'Debits a day',
  mandateMonthlyCount: 'Debits a month',
  mandateCount: (count: string) => `At most ${count}`,
  mandateExpires: 'Valid until',
  mandateBanksTitle: 'Sign at your bank',
  mandateBanksHint:
    'Choosing a bank takes you to its secure page to sign the mandate; after signing you go back to the shop.',
  mandatePreparingHeadline: 'Preparing the mandate…',
  mandatePreparingText: 'This page refreshes itself; please keep it open.',
  mandateEndedHeadline: 'This mandate is no longer waiting to be signed',
  mandateEndedText:
    'It was already signed, refused or canceled, or its time ran out. To sign a new one, go back to the shop.',
  mandateNotFoundTitle: 'Mandate not found',
  mandateNotFoundText:
    'This address does not point to any direct debit mandate. Check the link, or go back to the shop.',
  mandateReturnTitle: 'Back to the shop',
  mandateReturnHeadline: 'Taking you back to the shop…',
  mandateReturnText: 'If nothing happens in a moment, use the button below.',
  mandateBack: 'Back to the shop',
};

const DICTIONARIES: Readonly<Record<Lang, Strings>> = { fa, en };

export function strings(lang: Lang): Strings {
  return DICTIONARIES[lang];
}

/** `۱٬۵۰۰٬۰۰۰ ریال` and `۱۵۰٬۰۰۰ تومان` (Persian), `1,500,000 rials` and `150,000 toman` (English). */
export function formatAmount(rials: number, lang: Lang): { rials: string; toman: string } {
  const t = strings(lang);
  const number = new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 1 });
  return { rials: `${number.format(rials)} ${t.rials}`, toman: `${number.format(rialsToToman(rials))} ${t.toman}` };
}

/** A time of day in Tehran, where the customers are. */
export function formatTehranTime(iso: string, lang: Lang): string {
  const time = new Intl.DateTimeFormat(LOCALE[lang], {
    timeZone: 'Asia/Tehran',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
  return `${time} (${strings(lang).tehranTime})`;
}

/** A day in Tehran (the Persian calendar on the Persian page). */
export function formatTehranDay(when: string | Date, lang: Lang): string {
  return new Intl.DateTimeFormat(LOCALE[lang], { timeZone: 'Asia/Tehran', dateStyle: 'long' }).format(new Date(when));
}

/** A whole number in the reader's digits and grouping (`۱۰`, `10`). */
export function formatCount(n: number, lang: Lang): string {
  return new Intl.NumberFormat(LOCALE[lang]).format(n);
}
