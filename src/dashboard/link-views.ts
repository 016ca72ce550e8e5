/** The payment links page (docs/DASHBOARD.md#payment-links): the mode's links with their QR codes, the form that makes one. */
import type { KeyMode } from '../domain/merchant.ts';
import { COLLECTED_FIELDS, linkUnavailability, type PaymentLink } from '../domain/payment-link.ts';
import { localDigits } from '../http/words.ts';
import { formatRials, formatTime, strings } from './i18n.ts';
import { modeSwitch } from './kit.ts';
import { render, type ViewContext } from './views.ts';

/** What the create form shows again after a refusal: the fields as typed. */
export type LinkFormValues = Partial<
  Record<
    | 'title'
    | 'description'
    | 'amount'
    | 'min_amount'
    | 'max_amount'
    | 'expires_in_days'
    | 'max_payments'
    | 'collect_name'
    | 'collect_mobile'
    | 'collect_note',
    string
  >
>;

export function linksPage(
  context: ViewContext,
  list: { mode: KeyMode; links: PaymentLink[] },
  options: { notice?: string; error?: string; errorDetail?: string; form?: LinkFormValues },
): string {
  const { lang } = context;
  const t = strings(lang);
  const form = options.form ?? {};
  const now = Date.now();
  const collectLabels = { name: t.linkCollectName, mobile: t.linkCollectMobile, note: t.linkCollectNote };
  return render('links', context, {
    title: t.linksTitle,
    testMode: list.mode === 'test',
    notice: options.notice,
    error: options.error,
    errorDetail: options.errorDetail,
    mode: list.mode,
    modes: modeSwitch(lang, list.mode, '/dashboard/links'),
    form,
    collect: COLLECTED_FIELDS.map((field) => ({
      field,
      label: collectLabels[field],
      options: [
        { value: '', label: t.linkCollectOff },
        { value: 'optional', label: t.linkCollectOptional },
        { value: 'required', label: t.linkCollectRequired },
      ].map((o) => ({ ...o, selected: (form[`collect_${field}`] ?? '') === o.value })),
    })),
    links: list.links.map((link) => {
      const state = linkUnavailability(link, now) ?? 'active';
      return {
        id: link.id,
        slug: link.slug,
        title: link.title,
        url: link.url,
        qrPath: `/l/${link.slug}/qr.svg`,
        active: link.active,
        state,
        stateLabel: t[`linkState_${state}`],
        amount:
          link.amount !== null
            ? formatRials(link.amount, lang)
            : `${formatRials(link.min_amount ?? 0, lang)} – ${formatRials(link.max_amount ?? 0, lang)}`,
        payments: localDigits(
          link.max_payments === null ? String(link.payments_count) : `${link.payments_count} / ${link.max_payments}`,
          lang,
        ),
        expires: link.expires_at === null ? undefined : formatTime(link.expires_at, lang),
        created: formatTime(link.created_at, lang),
      };
    }),
  });
}
