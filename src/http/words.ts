/**
 * What the hosted pages and the dashboard say alike: the language type, the
 * brand and test-mode banner, the words of the error pages both show, and
 * digits in the reader's script. Each side spreads `SHARED_WORDS[lang]`
 * into its own dictionary, so a shared sentence is written once.
 */
export type Lang = 'fa' | 'en';

const fa = {
  brand: 'درگاه',
  switchLanguage: 'English',
  switchLanguageLang: 'en',
  testBanner: 'حالت آزمایشی — هیچ پولی جابه‌جا نمی‌شود.',
  rials: 'ریال',
  toman: 'تومان',
  forbiddenTitle: 'درخواست پذیرفته نشد',
  unavailableTitle: 'سرویس موقتاً در دسترس نیست',
  unavailableText: 'لطفاً چند لحظهٔ دیگر دوباره تلاش کنید.',
  errorTitle: 'خطایی رخ داد',
  errorText: 'مشکلی در سمت ما پیش آمد. لطفاً دوباره تلاش کنید.',
  requestId: 'شناسهٔ درخواست',
};

export type SharedWords = typeof fa;

const en: SharedWords = {
  brand: 'Dargah',
  switchLanguage: 'فارسی',
  switchLanguageLang: 'fa',
  testBanner: 'Test mode — no real money moves.',
  rials: 'rials',
  toman: 'toman',
  forbiddenTitle: 'Request refused',
  unavailableTitle: 'Temporarily unavailable',
  unavailableText: 'Please try again in a moment.',
  errorTitle: 'Something went wrong',
  errorText: 'Something went wrong on our side. Please try again.',
  requestId: 'Request id',
};

export const SHARED_WORDS: Readonly<Record<Lang, SharedWords>> = { fa, en };

/** The locale of numbers and dates for each language. */
export const LOCALE: Readonly<Record<Lang, string>> = { fa: 'fa-IR', en: 'en-US' };

const PERSIAN_DIGITS = '۰۱۲۳۴۵۶۷۸۹';

/** Digits as the reader expects them: Persian digits on Persian pages. */
export function localDigits(text: string, lang: Lang): string {
  return lang === 'fa' ? text.replace(/[0-9]/g, (d) => PERSIAN_DIGITS[Number(d)]!) : text;
}
