/**
 * Schemas of what only the HTTP layer answers: the error body and the
 * health probes. The resources' schemas live in src/domain.
 */
import { Type, type Static } from '@sinclair/typebox';

export const ErrorSchema = Type.Object(
  {
    code: Type.String({ description: 'machine-readable error code', examples: ['validation_failed'] }),
    message: Type.String({ description: 'human-readable explanation' }),
    request_id: Type.String({ description: 'the X-Request-Id of the response' }),
    details: Type.Optional(
      Type.Array(Type.Object({ path: Type.String(), message: Type.String() }, { additionalProperties: false }), {
        description: 'what is wrong with which field, for validation errors',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorSchema>;

const DependencyCheck = Type.Object(
  { ok: Type.Boolean(), error: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
const DependencyChecks = Type.Object(
  { mysql: DependencyCheck, temporal: DependencyCheck },
  { additionalProperties: false },
);

export const HealthSchema = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });
export const ReadySchema = Type.Object(
  { status: Type.Literal('ready'), checks: DependencyChecks },
  { additionalProperties: false },
);
export const NotReadySchema = Type.Object(
  {
    code: Type.Literal('service_unavailable'),
    message: Type.String(),
    request_id: Type.String(),
    checks: DependencyChecks,
  },
  { additionalProperties: false },
);
