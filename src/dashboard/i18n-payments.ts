/**
 * Words of the dashboard's payment pages about who pays the fee, what the customer was charged,
 * who may pay, the payment's splits, the PSP and terminal that took it and the payment link it came from
 * (docs/DASHBOARD.md#a-payments-page; a PSP's name is its profile's title, in Persian or English), spread into the
 * dashboard's dictionaries (i18n.ts). Persian first; the English one is typed from it.
 */
const fa = {
  feePayer: 'پرداخت‌کنندهٔ کارمزد',
  feePayer_merchant: 'شما (پذیرنده)',
  feePayer_customer: 'مشتری',
  chargedAmount: 'مبلغ کسرشده از مشتری',
  chargedShort: 'کسرشده از مشتری',
  feeFixedAtCreate: 'کارمزد (تعیین‌شده هنگام ساخت)',
  merchantReceives: 'سهم شما پس از کارمزد و تسهیم',
  allowedCards: 'کارت‌های مجاز',
  nationalCode: 'کد ملی پرداخت‌کننده (فقط ثبت می‌شود)',
  splitsTitle: 'تسهیم',
  splitsIntro: 'سهم هر ذی‌نفع در تسویهٔ روزانه جداگانه به شبای او واریز می‌شود.',
  splitBeneficiary: 'ذی‌نفع',
  splitIban: 'شبا',
  splitShare: 'سهم',
  splitRefunded: 'برگشت از سهم',
  splitState: 'وضعیت',
  splitSettled: 'تسویه‌شده',
  splitUnsettled: 'در انتظار تسویه',
  splitsTotal: 'جمع سهم‌ها',
  paymentPsp: 'PSP (شرکت پرداخت)',
  paymentPspNone: 'ثبت نشده: هنوز به بانک فرستاده نشده، یا پیش از مسیریابی PSPها ساخته شده است',
  paymentTerminal: 'ترمینال PSP',
  paymentLink: 'لینک پرداخت',
};

const en: typeof fa = {
  feePayer: 'Fee paid by',
  feePayer_merchant: 'You (the merchant)',
  feePayer_customer: 'The customer',
  chargedAmount: 'Charged to the customer',
  chargedShort: 'Charged',
  feeFixedAtCreate: 'Fee (fixed at create)',
  merchantReceives: 'Your share after the fee and splits',
  allowedCards: 'Allowed cards',
  nationalCode: "Payer's national code (recorded only)",
  splitsTitle: 'Splits',
  splitsIntro: "Each beneficiary's share is paid to its own IBAN by the daily settlement.",
  splitBeneficiary: 'Beneficiary',
  splitIban: 'IBAN',
  splitShare: 'Share',
  splitRefunded: 'Refunded from the share',
  splitState: 'State',
  splitSettled: 'Paid out',
  splitUnsettled: 'Awaiting settlement',
  splitsTotal: 'Shares in all',
  paymentPsp: 'PSP',
  paymentPspNone: 'Not recorded: not sent to a bank yet, or made before PSP routing',
  paymentTerminal: 'PSP terminal',
  paymentLink: 'Payment link',
};

export const PAYMENT_DETAIL_WORDS = { fa, en } as const;
