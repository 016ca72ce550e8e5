/**
 * Idempotency-Keys are compared byte for byte, and expired ones do not pile
 * up: the retention workflow deletes them (test/maintenance/retention.test.ts);
 * the cleanup workflow it replaced still runs to its end.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_CLEANUP_WORKFLOW } from '../../src/domain/maintenance.ts';
import { hashKey } from '../../src/merchants/keys.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { paymentRequest, type CreateResponse } from '../support/payments.ts';

describe('idempotency keys', () => {
  it('are case-sensitive: Order-1 and order-1 are two keys', async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const api = client(h.baseUrl, key);
    const upper = await api.post<CreateResponse>('/payments', paymentRequest({ amount: 150_000 }), {
      idempotencyKey: 'Order-1042-Create',
    });
    const lower = await api.post<CreateResponse>('/payments', paymentRequest({ amount: 250_000 }), {
      idempotencyKey: 'order-1042-create',
    });
    assert.equal(upper.status, 201, upper.text);
    assert.equal(lower.status, 201, `another key, not a reuse of the first: ${lower.text}`);
    assert.notEqual(upper.body.payment.id, lower.body.payment.id);
    assert.equal(lower.headers.get('idempotent-replayed'), null);
    // And the same key, byte for byte, still replays.
    const again = await api.post<CreateResponse>(
      '/payments',
      paymentRequest({ amount: 150_000, merchant_reference: upper.body.payment.merchant_reference }),
      { idempotencyKey: 'Order-1042-Create' },
    );
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.payment.id, upper.body.payment.id);
  });

  it('API key prefixes that differ only in case are two prefixes', async () => {
    const h = await getHarness();
    const { merchantId } = await newMerchant();
    // A letter first: a prefix of digits alone would be the same in both cases.
    const base = `k${randomUUID().replace(/-/g, '').slice(0, 11)}`;
    const rows = [base.toUpperCase(), base.toLowerCase()].map((p) => ({
      id: randomUUID(),
      merchant_id: merchantId,
      mode: 'test' as const,
      prefix: `sk_test_${p}`,
      key_hash: hashKey(p),
      created_at: new Date(),
    }));
    await h.db.insertInto('api_keys').values(rows).execute();
    const found = await h.db.selectFrom('api_keys').select('id').where('prefix', '=', rows[0]!.prefix).execute();
    assert.deepEqual(
      found.map((r) => r.id),
      [rows[0]!.id],
    );
  });

  // The retention workflow prunes expired keys now (test/maintenance/retention.test.ts); the workflow type that did
  // before stays registered so a run started before the switch completes, and still does its work.
  describe('cleanup by the workflow type retention replaced', () => {
    it('deletes every expired record in batches until none is left, and nothing else', async () => {
      const h = await getHarness();
      const { merchantId } = await newMerchant();
      const now = Date.now();
      const row = (i: number, expiresAt: number, lockedUntil: number | null = null) => ({
        merchant_id: merchantId,
        mode: 'test' as const,
        operation: 'create_payment',
        idempotency_key: `cleanup-${i}`,
        request_hash: '0'.repeat(64),
        resource_id: randomUUID(),
        locked_until: lockedUntil === null ? null : new Date(lockedUntil),
        response_status: 201,
        response_body: '{}',
        created_at: new Date(expiresAt - 86_400_000),
        expires_at: new Date(expiresAt),
      });
      const expired = Array.from({ length: 250 }, (_, i) => row(i, now - 60_000 - i));
      const live = Array.from({ length: 5 }, (_, i) => row(1000 + i, now + 3_600_000));
      const held = row(2000, now - 60_000, now + 30_000); // expired, but a request holds it right now
      await h.db
        .insertInto('idempotency_keys')
        .values([...expired, ...live, held])
        .execute();

      const deleted = await h.temporal.client.workflow.execute(IDEMPOTENCY_CLEANUP_WORKFLOW, {
        taskQueue: h.config.TEMPORAL_TASK_QUEUE,
        workflowId: `idempotency-cleanup-test-${randomUUID()}`,
        args: [{ batch_size: 100, max_batches: 1000 }],
      });
      const left = await h.db
        .selectFrom('idempotency_keys')
        .select('idempotency_key')
        .where('merchant_id', '=', merchantId)
        .orderBy('idempotency_key')
        .execute();
      assert.deepEqual(
        left.map((r) => r.idempotency_key),
        ['cleanup-1000', 'cleanup-1001', 'cleanup-1002', 'cleanup-1003', 'cleanup-1004', 'cleanup-2000'],
      );
      assert.ok(Number(deleted) >= 250, `deleted ${String(deleted)}`);
    });
  });
});
