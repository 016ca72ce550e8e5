/**
 * The mandate workflow's names and input (workflows/mandate.ts), shared by the services that start
 * and update it: one workflow per mandate, id `mandate-<id>`.
 */
export const MANDATE_WORKFLOW = 'mandateWorkflow';
export const mandateWorkflowId = (mandateId: string) => `mandate-${mandateId}`;

/** The customer's return from the bank reached the gateway: answers the mandate's status once settled. */
export const MANDATE_RETURN_UPDATE = 'mandateReturn';
/** The merchant cancels: answers the mandate's status once settled. */
export const MANDATE_CANCEL_UPDATE = 'mandateCancel';

/**
 * How long a customer has to sign once the mandate is asked: a bank page left open longer is a mandate
 * nobody will sign, and it ends `expired` rather than pending for ever.
 */
export const MANDATE_SIGNING_WINDOW_MS = 60 * 60_000;

export interface MandateWorkflowInput {
  mandate_id: string;
  /** The mandate's expires_at, in epoch ms: its timer. */
  expires_at_ms: number;
  signing_window_ms: number;
  /** Where the provider sends the customer back: the API's return route of this mandate (the API knows its public address). */
  provider_return_url: string;
}

export interface MandateReturnInput {
  signed: boolean;
}
