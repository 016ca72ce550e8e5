/**
 * Temporal hangs instead of dying: the dev server gets SIGSTOP under load and
 * SIGCONT 20 s later. Requests that need Temporal (creates, the bank's form
 * post) answer 503 with Retry-After within the bound on a Temporal call;
 * requests that need only MySQL go on being served; afterwards nothing is
 * lost or doubled and every workflow moved on.
 */
import assert from 'node:assert/strict';
import { freezeTemporal, recordFigures, thawTemporal } from '../support/faults/fault-stack.ts';
import { loadThroughFreeze } from '../support/faults/through-freeze.ts';

describe('fault: the Temporal server frozen (SIGSTOP) for 20 s under load', () => {
  it('answers every request within the bound meanwhile, then every create has exactly one paid payment', async () => {
    const figures = await loadThroughFreeze({
      scenario: 'temporal_frozen',
      freeze: freezeTemporal,
      thaw: thawTemporal,
      freezeMs: 20_000,
      freezeAfterMs: 4_000,
      creates: 120,
      everyMs: 200,
    });
    recordFigures('temporal_frozen', figures);
    assert.ok((figures.answered_503 as number) > 0, 'the freeze was seen by clients');
    assert.ok((figures.answered_ok_during_freeze as number) > 0, 'what needs only MySQL was served meanwhile');
    assert.equal(figures.unanswered, 0);
    assert.equal(figures.answered_other_5xx, 0);
    assert.ok(
      (figures.max_request_ms as number) <= (figures.request_bound_ms as number),
      `slowest requests: ${JSON.stringify(figures.slowest)}`,
    );
    assert.equal(figures.duplicates, 0);
    assert.equal(figures.lost, 0);
    assert.equal(figures.payments, 120);
    assert.equal(figures.records_differing_from_workflows, 0);
    assert.equal(figures.duplicate_events, 0);
  });
});
