/**
 * The webhooks area: a mode's endpoints (add with the secret shown once,
 * rotate, delete, re-enable) and its events with every delivery attempt
 * (redeliver). Each action is the API's: the same request schema and the
 * same function of src/webhooks/service.ts, scoped to the signed-in user's
 * merchant and the chosen mode, so another merchant's endpoint or event is
 * not found here either.
 */
import { EVENT_TYPES } from '../domain/events.ts';
import { KEY_MODES, type KeyMode } from '../domain/merchant.ts';
import { CreateWebhookEndpointRequestSchema } from '../domain/webhook-schemas.ts';
import { DomainError } from '../errors.ts';
import { countHit, rateCounter, redeliveryQuota } from '../http/rate-limit.ts';
import { bodyValidator } from '../http/validation.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  enableWebhookEndpoint,
  getEvent,
  listEvents,
  listWebhookEndpoints,
  MAX_ENDPOINTS,
  redeliver,
  rotateWebhookSecret,
} from '../webhooks/service.ts';
import { strings } from './i18n.ts';
import {
  CURSOR,
  idInPath,
  modeOf,
  modeQuery,
  Refusal,
  tenantOfUser,
  type DashboardKit,
  type SignedInRequest,
} from './kit.ts';
import { webhookEventPage, webhookEventsPage, webhooksPage, type EndpointFormState } from './webhook-views.ts';

const EVENT_ID = /^evt_[0-9a-f]{32}$/;
const EVENTS_PER_PAGE = 20;

export function webhookPages({
  router,
  deps,
  signedIn,
  readForm,
  html,
  seeOther,
  audit,
  liveAllowed,
  liveDone,
}: DashboardKit): void {
  const { db, config } = deps;
  const validateCreate = bodyValidator(CreateWebhookEndpointRequestSchema);
  // The API's redelivery quota, counted in the same bucket: the dashboard is no way around it.
  const redeliveries = rateCounter(config, db);
  const quota = redeliveryQuota(config);

  /** Live endpoints decide where live events (and their secrets) go: a change needs a recent second factor. */
  const liveChangeAllowed = (request: SignedInRequest, mode: KeyMode) =>
    mode !== 'live' || liveAllowed(request, 'live_webhook', '/dashboard/webhooks?mode=live');
  /** The change is recorded, and mailed to the owner when live. */
  const changed = async (
    request: SignedInRequest,
    mode: KeyMode,
    action: 'webhook_endpoint_created' | 'webhook_endpoint_changed' | 'webhook_endpoint_deleted',
    detail: string,
  ) => {
    await audit(request.ctx, action, request.user, detail);
    if (mode === 'live') await liveDone(request, 'live_webhook', detail);
  };

  const endpointsPage = async (
    request: SignedInRequest,
    mode: KeyMode,
    options: {
      notice?: string;
      error?: string;
      errorDetail?: string;
      secret?: { value: string; rotated: boolean };
      form?: EndpointFormState;
    } = {},
    status = 200,
  ) => {
    const endpoints = await listWebhookEndpoints(db, tenantOfUser(request.user, mode), { limit: MAX_ENDPOINTS });
    html(request.ctx, webhooksPage(request.view('webhooks'), { mode, endpoints: endpoints.data }, options), status);
  };

  router.get(
    '/dashboard/webhooks',
    signedIn(async (request) => {
      const t = strings(request.lang);
      const done = request.ctx.query.done;
      await endpointsPage(request, modeOf(request.ctx.query.mode), {
        notice: done === 'deleted' ? t.endpointDeletedText : done === 'enabled' ? t.endpointEnabledText : undefined,
      });
    }),
  );

  router.post(
    '/dashboard/webhooks/endpoints',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const mode = modeOf(form.get('mode'));
      if (!(await liveChangeAllowed(request, mode))) return;
      const events = form.getAll('events');
      const body = { url: (form.get('url') ?? '').trim(), ...(events.length > 0 ? { events } : {}) };
      let created: Awaited<ReturnType<typeof createWebhookEndpoint>>;
      try {
        created = await createWebhookEndpoint(deps, tenantOfUser(request.user, mode), validateCreate(body));
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'validation_failed') throw error;
        const t = strings(request.lang);
        await endpointsPage(
          request,
          mode,
          { error: t.endpointRefused, errorDetail: error.message, form: { url: body.url.slice(0, 2048), events } },
          422,
        );
        return;
      }
      await changed(request, mode, 'webhook_endpoint_created', `${mode}: ${body.url}`);
      // Answered here, not after a redirect: the secret is shown this once and kept nowhere else.
      await endpointsPage(request, mode, { secret: { value: created.secret, rotated: false } }, 201);
    }),
  );

  router.post(
    '/dashboard/webhooks/endpoints/:id/rotate',
    signedIn(async (request) => {
      const form = await readForm(request.ctx);
      const mode = modeOf(form.get('mode'));
      if (!(await liveChangeAllowed(request, mode))) return;
      // The API's default window (WEBHOOK_SECRET_ROTATION_SECONDS) for the old secret.
      const rotated = await rotateWebhookSecret(deps, tenantOfUser(request.user, mode), idInPath(request), undefined);
      await changed(request, mode, 'webhook_endpoint_changed', `${idInPath(request)}: secret rotated`);
      await endpointsPage(request, mode, { secret: { value: rotated.secret, rotated: true } });
    }),
  );

  // Delete, and enable after a disabling: the API's calls, then back to the list with what was done.
  for (const [action, perform, done, recorded] of [
    ['delete', deleteWebhookEndpoint, 'deleted', 'webhook_endpoint_deleted'],
    ['enable', enableWebhookEndpoint, 'enabled', 'webhook_endpoint_changed'],
  ] as const) {
    router.post(
      `/dashboard/webhooks/endpoints/:id/${action}`,
      signedIn(async (request) => {
        const form = await readForm(request.ctx);
        const mode = modeOf(form.get('mode'));
        if (!(await liveChangeAllowed(request, mode))) return;
        await perform(db, tenantOfUser(request.user, mode), idInPath(request));
        await changed(request, mode, recorded, `${idInPath(request)}: ${done}`);
        seeOther(request.ctx, `/dashboard/webhooks?done=${done}${modeQuery(mode, '&')}`);
      }),
    );
  }

  router.get(
    '/dashboard/webhooks/events',
    signedIn(async (request) => {
      const { ctx } = request;
      const mode = modeOf(ctx.query.mode);
      const type = EVENT_TYPES.find((known) => known === ctx.query.type);
      const cursor =
        typeof ctx.query.cursor === 'string' && CURSOR.test(ctx.query.cursor) ? ctx.query.cursor : undefined;
      const page = await listEvents(db, tenantOfUser(request.user, mode), {
        limit: EVENTS_PER_PAGE,
        ...(type ? { type } : {}),
        ...(cursor ? { cursor } : {}),
      });
      html(
        ctx,
        webhookEventsPage(request.view('webhooks'), {
          mode,
          type,
          events: page.data,
          nextCursor: page.next_cursor,
          paged: cursor !== undefined,
        }),
      );
    }),
  );

  /** The user's event in whichever mode it is; another merchant's is not found, as through the API. */
  async function ownEvent(request: SignedInRequest) {
    const id = request.ctx.params.id ?? '';
    if (EVENT_ID.test(id)) {
      for (const mode of KEY_MODES) {
        try {
          return { mode, ...(await getEvent(db, tenantOfUser(request.user, mode), id)) };
        } catch (error) {
          if (!(error instanceof DomainError && error.code === 'not_found')) throw error;
        }
      }
    }
    throw new Refusal(404, 'not_found');
  }

  const eventPage = async (
    request: SignedInRequest,
    found: Awaited<ReturnType<typeof ownEvent>>,
    options: { notice?: string; error?: string; errorDetail?: string },
    status = 200,
  ) => {
    const endpoints = await listWebhookEndpoints(db, tenantOfUser(request.user, found.mode), { limit: MAX_ENDPOINTS });
    html(
      request.ctx,
      webhookEventPage(
        request.view('webhooks'),
        { ...found, endpoints: endpoints.data, retryScheduleSeconds: config.WEBHOOK_RETRY_SCHEDULE_SECONDS },
        options,
      ),
      status,
    );
  };

  router.get(
    '/dashboard/webhooks/events/:id',
    signedIn(async (request) => {
      const found = await ownEvent(request);
      await eventPage(request, found, {
        notice: request.ctx.query.done === 'redelivered' ? strings(request.lang).redeliveredText : undefined,
      });
    }),
  );

  router.post(
    '/dashboard/webhooks/events/:id/redeliver',
    signedIn(async (request) => {
      await readForm(request.ctx);
      const found = await ownEvent(request);
      const tenant = tenantOfUser(request.user, found.mode);
      if (quota.limit > 0) {
        const { refusal } = await countHit(redeliveries, {
          name: quota.bucket(tenant),
          limit: quota.limit,
          windowSeconds: quota.windowSeconds,
          message: quota.message,
        });
        if (refusal !== undefined) {
          request.ctx.set('Retry-After', refusal.headers['Retry-After'] ?? '60');
          await eventPage(
            request,
            found,
            { error: strings(request.lang).redeliverRefused, errorDetail: refusal.message },
            refusal.status,
          );
          return;
        }
      }
      // To every subscribed, enabled endpoint, as the API does without an endpoint_id.
      await redeliver(deps, tenant, found.event.id, undefined);
      await audit(request.ctx, 'webhook_event_redelivered', request.user, found.event.id);
      seeOther(request.ctx, `/dashboard/webhooks/events/${found.event.id}?done=redelivered`);
    }),
  );
}
