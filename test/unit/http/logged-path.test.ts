/** The request log's path (src/api/middleware/errors.ts): a Zibal trackId, the key to its payment's page, stays out of it. */
import assert from 'node:assert/strict';
import { loggedPath } from '../../../src/api/middleware/errors.ts';

describe('the path the request log records', () => {
  it("is the route's for /start/{trackId}, without the trackId", () => {
    assert.equal(loggedPath('/start/4608037894246053'), '/start/:trackId');
    assert.equal(loggedPath('/start/4608037894246053/'), '/start/:trackId/');
  });

  it('is the path itself everywhere else', () => {
    for (const path of [
      '/api/v1/payments',
      '/pay/b4df3b07-af3c-49cc-92c3-af40b781ddc6/return',
      '/l/summer-sale',
      '/startpay',
      '/pg/StartPay/S0000000000000000000000000000000001',
    ]) {
      assert.equal(loggedPath(path), path);
    }
  });
});
