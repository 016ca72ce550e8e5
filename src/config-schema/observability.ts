/**
 * The settings of what an operator watches (src/config-schema.ts, docs/OPERATIONS.md): the Prometheus
 * /metrics endpoints of the API, the worker and the Temporal SDK, the Temporal Web UI the CLI links to,
 * and the log level.
 */
import { Type } from '@sinclair/typebox';
import { Int } from './setting.ts';

/** The /metrics endpoints of the API, the worker and the Temporal SDK, the Temporal Web UI's links, and the log level. */
export const observabilitySettings = {
  METRICS_HOST: Type.String({
    default: '127.0.0.1',
    minLength: 1,
    description:
      'address the Prometheus /metrics endpoints of the API and the worker listen on (never the public API); docs/OPERATIONS.md',
  }),
  API_METRICS_PORT: Int({
    default: 9464,
    minimum: 0,
    maximum: 65535,
    description: "port of the API process's /metrics (0: a free port, logged)",
  }),
  WORKER_METRICS_PORT: Int({
    default: 9465,
    minimum: 0,
    maximum: 65535,
    description:
      "port of the worker process's /metrics: its own metrics followed by the Temporal SDK's (0: a free port, logged)",
  }),
  TEMPORAL_SDK_METRICS_PORT: Int({
    default: 9466,
    minimum: 0,
    maximum: 65535,
    description:
      "worker: port on METRICS_HOST of the Temporal SDK's own Prometheus exporter, which WORKER_METRICS_PORT's /metrics reads and appends (0: a free port)",
  }),
  TEMPORAL_UI_URL: Type.String({
    default: 'http://localhost:8233',
    pattern: '^https?://',
    description: 'the Temporal Web UI, for the links `npm run cli -- payments show` prints',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'pino log level' },
  ),
};
