/**
 * Calls to Temporal from a request: bounded, so a dead or slow server means
 * a prompt 503, and a workflow's typed refusal becomes a DomainError.
 */
import {
  ServiceError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure, NamespaceNotFoundError } from '@temporalio/common';
import { BANK_UNAVAILABLE_REFUSAL } from '../domain/payment-workflow.ts';
import { DomainError, refusalError, withTimeout } from '../errors.ts';

/** Bound on any one call to Temporal from a request, so a dead server means a prompt 503. */
export const TEMPORAL_CALL_MS = 5_000;

/**
 * Runs a Temporal call under a gRPC deadline: a dead or slow server fails the
 * call (503), never hangs it, and the SDK stops retrying it when the deadline
 * passes (a bare timer would leave the call retrying in the background).
 */
export function temporalCall<T>(temporal: Client, call: () => Promise<T>): Promise<T> {
  return withTimeout(
    'Temporal',
    TEMPORAL_CALL_MS + 500,
    temporal.connection.withDeadline(Date.now() + TEMPORAL_CALL_MS, call),
  );
}

/**
 * The Temporal server did not answer (down, restarting, or past the deadline).
 * A cluster whose persistence is restarting also answers "namespace not found"
 * for a namespace that exists (its services could not read it): the cluster
 * suite's PostgreSQL restart showed it, so it counts as unavailable, not a bug.
 */
export const isTemporalUnavailable = (error: unknown) =>
  error instanceof ServiceError ||
  error instanceof WorkflowUpdateRPCTimeoutOrCancelledError ||
  error instanceof NamespaceNotFoundError;

/**
 * The refusal an Update's handler or validator answered with (verify,
 * refund), as a DomainError; undefined for any other failure. A bank that did
 * not answer in time (BANK_UNAVAILABLE_REFUSAL: no PSP of the route gave a
 * token, or the settle at verify) is 503 `service_unavailable` with the
 * workflow's message: the same request again may complete it.
 */
export function updateRefusal(error: unknown): DomainError | undefined {
  const cause = error instanceof WorkflowUpdateFailedError ? error.cause : undefined;
  if (!(cause instanceof ApplicationFailure)) return undefined;
  if (cause.type === BANK_UNAVAILABLE_REFUSAL) return new DomainError('service_unavailable', cause.message);
  return refusalError(cause.type, cause.message);
}

/**
 * An Update that answers undefined when its workflow has finished (a finished workflow takes no
 * update: the record already holds its last state); a refusal of the Update is thrown as it came.
 */
export async function updateUnlessFinished<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError) throw error;
    if (error instanceof Error && /workflow execution already completed|not found/i.test(error.message))
      return undefined;
    throw error;
  }
}
