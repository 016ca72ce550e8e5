import assert from 'node:assert/strict';
import { LegacySandboxBank, type BankAdapter } from '../../../src/adapters/bank.ts';

describe('the legacy in-worker sandbox bank (payments started before the bank protocol)', () => {
  const bank: BankAdapter = new LegacySandboxBank();

  it('answers a retried operation the same, with no ledger: its answer comes from the operation key', async () => {
    assert.deepEqual(await bank.capture('p-1', 1_000), await bank.capture('p-1', 1_000));
    assert.deepEqual(await bank.reverse('p-1', 1_000), await bank.reverse('p-1', 1_000));
    assert.deepEqual(await bank.refund('p-1', 'r-1', 500), await bank.refund('p-1', 'r-1', 500));
    assert.notDeepEqual(await bank.refund('p-1', 'r-1', 500), await bank.refund('p-1', 'r-2', 500));
    assert.notDeepEqual(await bank.capture('p-1', 1_000), await bank.capture('p-2', 1_000));
  });

  it('answers in the shapes a payment records: reference digits, a 12-digit RRN, a masked test card', async () => {
    const capture = await bank.capture('p-3', 1_000);
    assert.match(capture.reference_id, /^[0-9]+$/);
    assert.match(capture.rrn, /^[0-9]{12}$/);
    assert.match(capture.card_pan, /^603799\*+[0-9]{4}$/);
  });
});
