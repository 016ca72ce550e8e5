/**
 * Determinism guard of the merchant onboarding workflow (workflows/onboarding.ts),
 * like test/payments/replay.test.ts for payments: fresh histories of its paths
 * and the committed generations in test/fixtures/histories/onboarding/
 * (recorded with RECORD_ONBOARDING_HISTORIES=v<n>) are replayed against the
 * current code. A merchant's workflow runs for as long as the merchant exists,
 * so a change that breaks one in flight fails here.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { committedHistories, recordFixture, replayAll, type NamedHistory } from '../support/replay.ts';
import { getHarness } from '../support/harness.ts';
import { GOOD_DOCUMENTS, SMALL_PDF } from '../support/live.ts';
import { documentStore } from '../../src/adapters/document-store.ts';
import { createOnboardedMerchant } from '../../src/merchants/merchants.ts';
import { submitDocuments } from '../../src/merchants/documents.ts';
import {
  activateLiveMode,
  addDomain,
  approveGateway,
  rejectGateway,
  requestGateway,
} from '../../src/merchants/onboarding.ts';
import { OnboardingRefused } from '../../src/domain/onboarding.ts';
import { onboardingWorkflowId } from '../../src/domain/onboarding-workflow.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories', 'onboarding');

describe('onboarding workflow determinism (replay)', () => {
  const fresh: NamedHistory[] = [];

  before(async function () {
    this.timeout(120_000);
    const h = await getHarness();
    const deps = { db: h.db, temporal: h.temporal.client, config: h.config };
    const store = documentStore(h.config);
    const paths: Record<string, string> = {};

    // Every step, a rejection and a resubmission among them.
    const live = await createOnboardedMerchant(deps, { name: 'Replay live' });
    await addDomain(deps, live.merchant_id, 'replay.example');
    await submitDocuments({ ...deps, store }, live.merchant_id, GOOD_DOCUMENTS, [{ name: 'a.pdf', bytes: SMALL_PDF }]);
    await requestGateway(deps, live.merchant_id);
    await rejectGateway(deps, live.merchant_id, 'the IBAN is not the business’s');
    await submitDocuments({ ...deps, store }, live.merchant_id, GOOD_DOCUMENTS, []);
    await approveGateway(deps, live.merchant_id);
    await activateLiveMode(deps, live.merchant_id);
    paths.live = live.merchant_id;

    // Steps out of order (refused in the validators, so absent from the history), then a request left under review.
    const waiting = await createOnboardedMerchant(deps, { name: 'Replay waiting', domain: 'waiting.example' });
    await assert.rejects(requestGateway(deps, waiting.merchant_id), OnboardingRefused);
    await assert.rejects(activateLiveMode(deps, waiting.merchant_id), OnboardingRefused);
    await submitDocuments({ ...deps, store }, waiting.merchant_id, GOOD_DOCUMENTS, [
      { name: 'b.pdf', bytes: SMALL_PDF },
    ]);
    await requestGateway(deps, waiting.merchant_id);
    paths['under-review'] = waiting.merchant_id;

    for (const [path, merchantId] of Object.entries(paths)) {
      const history = await h.temporal.client.workflow.getHandle(onboardingWorkflowId(merchantId)).fetchHistory();
      fresh.push({ workflowId: path, history });
      recordFixture(FIXTURES, 'RECORD_ONBOARDING_HISTORIES', path, history);
    }
  });

  it('replays a fresh history of every path with the current code', async () => {
    const h = await getHarness();
    assert.equal(await replayAll(h.bundle, fresh), 2);
  });

  it('replays the committed histories recorded from earlier code', async () => {
    const h = await getHarness();
    const histories = committedHistories(FIXTURES);
    assert.ok(histories.length >= 2, 'the first generation (v1) is committed');
    assert.equal(await replayAll(h.bundle, histories), histories.length);
  });
});
