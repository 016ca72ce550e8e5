/** The webhooks area's pages: endpoints, events, and one event with its delivery attempts. */
import { EVENT_TYPES, type EventType } from '../domain/events.ts';
import type { KeyMode } from '../domain/merchant.ts';
import { nextAttemptAt, retryScheduleMs } from '../domain/webhook-delivery.ts';
import type { Event, WebhookAttempt, WebhookEndpoint } from '../domain/webhook-schemas.ts';
import { localDigits } from '../http/words.ts';
import { formatRials, formatTime, strings, type Lang } from './i18n.ts';
import { modeQuery, modeSwitch } from './kit.ts';
import { hrefWith, render, type ViewContext } from './views.ts';

/** What the add form shows again after a refusal. */
export interface EndpointFormState {
  url: string;
  events: string[];
}

export function webhooksPage(
  context: ViewContext,
  list: { mode: KeyMode; endpoints: WebhookEndpoint[] },
  options: {
    notice?: string;
    error?: string;
    errorDetail?: string;
    secret?: { value: string; rotated: boolean };
    form?: EndpointFormState;
  },
): string {
  const { lang } = context;
  const t = strings(lang);
  const form = options.form ?? { url: '', events: [] };
  return render('webhooks', context, {
    title: t.webhooksTitle,
    testMode: list.mode === 'test',
    notice: options.notice,
    error: options.error,
    errorDetail: options.errorDetail,
    secret: options.secret,
    mode: list.mode,
    modes: modeSwitch(lang, list.mode, '/dashboard/webhooks'),
    eventsHref: `/dashboard/webhooks/events${modeQuery(list.mode)}`,
    endpoints: list.endpoints.map((e) => ({
      id: e.id,
      url: e.url,
      events: e.events === null ? [] : e.events,
      enabled: e.status === 'enabled',
      state: t[`endpoint_${e.status}`],
      disabledReason: e.disabled_reason ?? '',
      previousSecretUntil:
        e.previous_secret_expires_at !== null && Date.parse(e.previous_secret_expires_at) > Date.now()
          ? formatTime(e.previous_secret_expires_at, lang)
          : undefined,
      created: formatTime(e.created_at, lang),
    })),
    form,
    eventTypes: EVENT_TYPES.map((type) => ({ type, label: t.eventLabels[type], checked: form.events.includes(type) })),
  });
}

export function webhookEventsPage(
  context: ViewContext,
  list: { mode: KeyMode; type: EventType | undefined; events: Event[]; nextCursor: string | null; paged: boolean },
): string {
  const { lang } = context;
  const t = strings(lang);
  // Test mode is the default: its links do not say so.
  const query = (params: { mode: KeyMode; type: string | undefined; cursor?: string }) =>
    hrefWith('/dashboard/webhooks/events', { ...params, mode: params.mode === 'live' ? 'live' : undefined });
  return render('webhook-events', context, {
    title: t.eventsTitle,
    testMode: list.mode === 'test',
    mode: list.mode,
    modes: modeSwitch(lang, list.mode, '/dashboard/webhooks/events'),
    backHref: `/dashboard/webhooks${modeQuery(list.mode)}`,
    types: EVENT_TYPES.map((type) => ({ type, label: t.eventLabels[type], selected: type === list.type })),
    rows: list.events.map((e) => ({
      id: e.id,
      href: `/dashboard/webhooks/events/${e.id}`,
      type: e.type,
      label: t.eventLabels[e.type],
      created: formatTime(e.created_at, lang),
    })),
    nextHref:
      list.nextCursor === null ? undefined : query({ mode: list.mode, type: list.type, cursor: list.nextCursor }),
    firstHref: list.paged ? query({ mode: list.mode, type: list.type }) : undefined,
  });
}

/** What an event is about, in a few words: the payment's reference and amount, the refund's amount, the endpoint's URL. */
function subjectOf(event: Event, lang: Lang): { text: string; href?: string } {
  const { payment, refund, webhook_endpoint: endpoint } = event.data;
  if (payment !== undefined)
    return {
      text: `${payment.merchant_reference} · ${formatRials(payment.amount, lang)}`,
      href: `/dashboard/payments/${payment.id}`,
    };
  if (refund !== undefined)
    return { text: formatRials(refund.amount, lang), href: `/dashboard/payments/${refund.payment_id}` };
  if (endpoint !== undefined) return { text: endpoint.url };
  return { text: '' };
}

export function webhookEventPage(
  context: ViewContext,
  found: {
    mode: KeyMode;
    event: Event;
    attempts: WebhookAttempt[];
    endpoints: WebhookEndpoint[];
    retryScheduleSeconds: string;
  },
  options: { notice?: string | undefined; error?: string; errorDetail?: string },
): string {
  const { lang } = context;
  const t = strings(lang);
  const byId = new Map(found.endpoints.map((e) => [e.id, e]));
  const schedule = retryScheduleMs(found.retryScheduleSeconds);
  // Only a delivery's latest attempt can be followed by another: when it failed and its endpoint is still enabled.
  const latest = new Map<string, WebhookAttempt>();
  for (const a of found.attempts) latest.set(a.delivery_id, a);
  const subject = subjectOf(found.event, lang);
  return render('webhook-event', context, {
    title: `${t.eventTitle} ${found.event.type}`,
    testMode: found.mode === 'test',
    ...options,
    backHref: `/dashboard/webhooks/events${modeQuery(found.mode)}`,
    id: found.event.id,
    type: found.event.type,
    label: t.eventLabels[found.event.type],
    created: formatTime(found.event.created_at, lang),
    subject,
    redeliverAction: `/dashboard/webhooks/events/${found.event.id}/redeliver`,
    attempts: found.attempts.map((a) => {
      const endpoint = byId.get(a.endpoint_id);
      const next =
        !a.succeeded && latest.get(a.delivery_id) === a && endpoint?.status === 'enabled'
          ? nextAttemptAt(a.attempt, new Date(a.attempted_at), schedule)
          : null;
      return {
        time: formatTime(a.attempted_at, lang),
        endpoint: endpoint?.url ?? t.deletedEndpoint,
        attempt: localDigits(String(a.attempt), lang),
        statusCode: a.response_status === null ? '—' : localDigits(String(a.response_status), lang),
        ok: a.succeeded,
        outcome: a.succeeded ? t.attemptSucceeded : t.attemptErrors[a.error ?? 'connection_failed'],
        next: next === null ? '—' : formatTime(next, lang),
      };
    }),
  });
}
