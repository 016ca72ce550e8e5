/**
 * The settings of webhook deliveries (src/config-schema.ts, docs/WEBHOOKS.md): the retry schedule and
 * a receiver's time to answer, the old secret's overlap after a rotation, the receivers allowed
 * (loopback in test mode, more ports, the operator's own networks and their CA), the worker's slots
 * for attempts, in all and per merchant, and the merchants' redeliveries. Their own area: the webhook
 * worker and the checks of a receiver's address read them and nothing else here.
 */
import { Type } from '@sinclair/typebox';
import { Int } from './setting.ts';

/** Webhook deliveries: their schedule and timeout, secret rotation, the receivers allowed, the worker's slots, redeliveries. */
export const webhookSettings = {
  WEBHOOK_RETRY_SCHEDULE_SECONDS: Type.String({
    // 0 s, 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h steps until the retries span about 3 days (77.6 h): docs/WEBHOOKS.md#deliveries.
    default: '0,5,300,1800,7200,18000,36000,36000,36000,36000,36000,36000,36000',
    pattern: '^[0-9]{1,7}(,[0-9]{1,7}){0,19}$',
    description:
      'webhook delivery: seconds to wait before each attempt (the first is usually 0); the default spans about 3 days',
  }),
  WEBHOOK_TIMEOUT_MS: Int({
    default: 10_000,
    minimum: 100,
    maximum: 120_000,
    description: 'webhook delivery: time a receiver has to answer one attempt',
  }),
  WEBHOOK_SECRET_ROTATION_SECONDS: Int({
    default: 86_400,
    minimum: 0,
    description: 'after rotate_secret, how long the old webhook secret still signs deliveries alongside the new one',
  }),
  WEBHOOK_ALLOW_LOOPBACK_IN_TEST: Type.Boolean({
    default: false,
    description:
      "test mode: allow webhook endpoints on localhost/127.0.0.1 (any port) for local development; `npm start` and the tests turn it on. Never on a shared server: a test key could reach the worker host's own services",
  }),
  WEBHOOK_ALLOWED_PORTS: Type.String({
    default: '',
    pattern: '^([0-9]{1,5}(,[0-9]{1,5}){0,31})?$',
    description: 'webhook URLs may use ports 443 and 80; this comma-separated list allows more (e.g. 8443)',
  }),
  WEBHOOK_ALLOWED_NETWORKS: Type.String({
    default: '',
    description:
      "networks of your own (comma-separated CIDRs, e.g. 10.20.0.0/16) where merchants' webhook receivers may be, in both modes, although private: a merchant's server on the operator's network. Only for the merchants you allow there (`npm run cli -- merchants allow-operator-network --merchant <id>`); never a loopback, link-local, multicast, reserved or other special-use range nor one wider than a /8 (refused at start). Live mode still wants https; empty: only public addresses (docs/WEBHOOKS.md#receivers-on-the-operators-network)",
  }),
  WEBHOOK_CA_FILE: Type.String({
    default: '',
    description:
      'a PEM file of the certificate authority that signs receivers on WEBHOOK_ALLOWED_NETWORKS (an internal CA), trusted for them besides the public roots; empty: the public roots only',
  }),
  WEBHOOK_WORKER_MAX_CONCURRENT_ATTEMPTS: Int({
    default: 40,
    minimum: 1,
    description:
      'worker: webhook attempts one worker process runs at once, on the webhook task queue (<TEMPORAL_TASK_QUEUE>-webhooks), apart from the payment slots',
  }),
  WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_MERCHANT: Int({
    default: 5,
    minimum: 1,
    description:
      "worker: webhook attempts of one merchant a worker process runs at once; the merchant's other attempts wait for a slot, so one slow receiver cannot take every slot",
  }),
  WEBHOOK_REDELIVERIES_PER_MINUTE: Int({
    default: 30,
    minimum: 0,
    description:
      'POST /events/{id}/redeliver requests a merchant may make per minute and mode (0: unlimited); beyond it 429 rate_limited',
  }),
};
