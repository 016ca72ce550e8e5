import assert from 'node:assert/strict';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { BANK_UNAVAILABLE_REFUSAL } from '../../src/domain/payment-workflow.ts';
import { DomainError, ERROR_STATUS, isErrorCode, refusalError } from '../../src/errors.ts';
import { updateRefusal } from '../../src/temporal/call.ts';

describe('the error table', () => {
  it('turns a workflow refusal with a known code into that code and its status', () => {
    const error = refusalError('amount_mismatch', 'The amount does not match the payment amount.');
    assert.ok(error instanceof DomainError);
    assert.equal(error.code, 'amount_mismatch');
    assert.equal(error.status, 422);
    assert.equal(refusalError('payment_not_refundable', 'closed')?.status, 409);
  });

  it('leaves a failure type outside the table, such as illegal_transition, to be a 500', () => {
    assert.equal(refusalError('illegal_transition', 'illegal transition paid -> created'), undefined);
    assert.equal(refusalError(undefined, 'no type'), undefined);
    assert.equal(refusalError('toString', 'an inherited property is not a code'), undefined);
  });

  it('never lets a workflow answer with a server error code', () => {
    assert.equal(refusalError('internal_error', 'x'), undefined);
    assert.equal(refusalError('service_unavailable', 'x'), undefined);
  });

  it('gives every code an HTTP error status', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      assert.ok(isErrorCode(code));
      assert.ok(status >= 400 && status < 600, `${code}: ${status}`);
    }
  });
});

describe("an Update's refusal as the API answers it", () => {
  const refused = (type: string, message: string) =>
    new WorkflowUpdateFailedError(
      'Workflow Update failed',
      ApplicationFailure.create({ type, message, nonRetryable: true }),
    );

  it('a code of the table is itself; a bank that did not answer is 503 service_unavailable with its message; anything else is not a refusal', () => {
    assert.deepEqual(
      [
        updateRefusal(refused('payment_not_paid', 'not paid'))?.code,
        updateRefusal(refused('payment_not_paid', 'not paid'))?.status,
      ],
      ['payment_not_paid', 409],
    );
    const unavailable = updateRefusal(
      refused(BANK_UNAVAILABLE_REFUSAL, 'The bank did not settle the payment in time; verify again.'),
    );
    assert.deepEqual(
      [unavailable?.code, unavailable?.status, unavailable?.message],
      ['service_unavailable', 503, 'The bank did not settle the payment in time; verify again.'],
    );
    assert.equal(updateRefusal(refused('illegal_transition', 'x')), undefined);
    assert.equal(updateRefusal(new Error('not an Update')), undefined);
  });
});
