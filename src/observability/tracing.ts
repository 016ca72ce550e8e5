/**
 * OpenTelemetry traces, off unless the standard OTLP exporter variables name
 * a collector (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
 * the protocol from OTEL_EXPORTER_OTLP[_TRACES]_PROTOCOL: http/protobuf by
 * default, or http/json). Off, no SDK is started and every helper here
 * costs one boolean test.
 *
 * On, one trace follows a request: the HTTP span (src/http/observe.ts), the
 * Temporal client's start or Update (client interceptor), the workflow and
 * its activity schedules (workflow interceptors, inside the workflow
 * bundle), each activity (activity interceptor), and under those the MySQL
 * queries (src/db/database.ts) and the bank's calls (src/psps/sep/client.ts).
 */
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter as OTLPJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { Resource } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client/index.js';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/worker/index.js';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The workflow interceptors' module, bundled with the workflow code when tracing is on (src/main/payment-worker.ts). */
export const WORKFLOW_TRACING_MODULE =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

export const tracer = trace.getTracer('dargah');

let active: { sdk: NodeSDK; spanProcessor: SpanProcessor; resource: Resource } | undefined;

/** Whether the environment names an OTLP collector for traces (and does not disable the SDK). */
export function tracingConfigured(env: Record<string, string | undefined> = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

export function tracingActive(): boolean {
  return active !== undefined;
}

/** The exporter the standard protocol variable asks for; each reads its endpoint and headers from the standard variables itself. */
function exporterFromEnv(env: Record<string, string | undefined>) {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf';
  if (protocol === 'http/json') return new OTLPJsonTraceExporter();
  if (protocol === 'http/protobuf') return new OTLPProtoTraceExporter();
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported here: use http/protobuf or http/json`);
}

/**
 * Starts the OpenTelemetry SDK for this process when a collector is
 * configured (service.name: OTEL_SERVICE_NAME, else `serviceName`); call
 * before the Temporal client and the worker are built. Answers a function
 * that flushes and stops it.
 */
export function startTracing(
  serviceName: string,
  env: Record<string, string | undefined> = process.env,
): () => Promise<void> {
  if (!tracingConfigured(env) || active !== undefined) return async () => undefined;
  const resource = new Resource({ 'service.name': env.OTEL_SERVICE_NAME || serviceName });
  const spanProcessor = new BatchSpanProcessor(exporterFromEnv(env));
  // No automatic instrumentations: the spans above are made where they are cheap and labelled right.
  const sdk = new NodeSDK({ resource, spanProcessors: [spanProcessor], instrumentations: [] });
  sdk.start();
  active = { sdk, spanProcessor, resource };
  return async () => {
    active = undefined;
    await sdk.shutdown();
  };
}

/** Runs `fn` inside a span when tracing is on; else just runs it. A thrown error marks the span and goes on. */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  fn: (span?: Span) => Promise<T>,
): Promise<T> {
  if (active === undefined) return fn();
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A callback-style operation (mysql2's query) as a span: `end` closes it. Undefined when tracing is off. */
export function startChildSpan(name: string, attributes: Attributes): { end: (error?: unknown) => void } | undefined {
  if (active === undefined) return undefined;
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, context.active());
  return {
    end(error) {
      if (error !== undefined && error !== null)
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as { code?: string }).code ?? 'error' });
      span.end();
    },
  };
}

/** The Temporal client's interceptors: its starts, Updates and signals carry the caller's trace to the workflow. */
export function temporalClientInterceptors(): { workflow: OpenTelemetryWorkflowClientInterceptor[] } | undefined {
  return active === undefined ? undefined : { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}

/**
 * What a Temporal worker needs for traces: the activity interceptor (when
 * on) and always the sink the bundled workflow interceptors export through
 * (discarding when off: a bundle made with them, as the test suite's is,
 * runs on a worker without tracing too).
 */
export function temporalWorkerTracing() {
  const processor = active?.spanProcessor ?? new NoopSpanProcessor();
  const resource = active?.resource ?? Resource.empty();
  return {
    activityInterceptors:
      active === undefined
        ? []
        : [
            (ctx: ConstructorParameters<typeof OpenTelemetryActivityInboundInterceptor>[0]) => ({
              inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
            }),
          ],
    sinks: { exporter: makeWorkflowExporter(processor, resource) },
  };
}
