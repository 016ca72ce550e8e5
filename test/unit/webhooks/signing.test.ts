import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signWebhook, webhookHeaders } from '../../../src/adapters/webhook-signing.ts';

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('webhook signatures', () => {
  it('give the known answer of the Standard Webhooks specification', () => {
    // The example of https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md
    assert.equal(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('make a new secret of whsec_ and 32 random bytes in base64, different every time', () => {
    const secret = newWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(secret.slice('whsec_'.length), 'base64').length, 32);
    assert.notEqual(newWebhookSecret(), secret);
  });

  it('carry the event id and the timestamp in webhook-id and webhook-timestamp', () => {
    const headers = webhookHeaders([newWebhookSecret()], 'evt_1', 1_700_000_000, '{}');
    assert.equal(headers['webhook-id'], 'evt_1');
    assert.equal(headers['webhook-timestamp'], '1700000000');
    assert.match(headers['webhook-signature'], /^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('are verified by the standardwebhooks package', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ id: 'evt_1', type: 'payment.paid', data: { payment: { amount: 1_500_000 } } });
    const headers = webhookHeaders([secret], 'evt_1', nowSeconds(), body);
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
  });

  it('fail verification when the body, the id or the timestamp is tampered with', () => {
    const secret = newWebhookSecret();
    const body = '{"id":"evt_2","type":"payment.paid"}';
    const now = nowSeconds();
    const headers = webhookHeaders([secret], 'evt_2', now, body);
    assert.throws(() => new Webhook(secret).verify(body.replace('paid', 'verified'), headers), /signature/i);
    assert.throws(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_3' }), /signature/i);
    assert.throws(
      () => new Webhook(secret).verify(body, { ...headers, 'webhook-timestamp': String(now - 1) }),
      /signature/i,
    );
  });

  it('fail verification with another secret or a stale timestamp', () => {
    const secret = newWebhookSecret();
    const body = '{"id":"evt_4","type":"payment.paid"}';
    assert.throws(
      () => new Webhook(newWebhookSecret()).verify(body, webhookHeaders([secret], 'evt_4', nowSeconds(), body)),
      /signature/i,
    );
    const stale = webhookHeaders([secret], 'evt_4', nowSeconds() - 10 * 60, body);
    assert.throws(() => new Webhook(secret).verify(body, stale), /timestamp too old/i);
  });

  it('during a secret rotation carry two signatures, current first, each verifying with its own secret', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const body = JSON.stringify({ id: 'evt_5', type: 'payment.verified' });
    const now = nowSeconds();
    const headers = webhookHeaders([current, previous], 'evt_5', now, body);
    const signatures = headers['webhook-signature'].split(' ');
    assert.deepEqual(signatures, [signWebhook(current, 'evt_5', now, body), signWebhook(previous, 'evt_5', now, body)]);
    assert.deepEqual(new Webhook(current).verify(body, headers), JSON.parse(body));
    assert.deepEqual(new Webhook(previous).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(newWebhookSecret()).verify(body, headers), /signature/i);
  });

  it('refuse a secret that is not a whsec_ secret', () => {
    assert.throws(() => signWebhook('sk_test_123', 'evt_6', nowSeconds(), '{}'), /whsec_/);
  });
});
