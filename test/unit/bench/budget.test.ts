import assert from 'node:assert/strict';
import {
  checkRatios,
  HISTORY_BUDGET,
  HISTORY_GOAL,
  offTheBudgetedPath,
  overBudget,
  overBudgetReport,
  RATIO_FLOORS,
  RATIO_GOALS,
} from '../../../tools/bench/budget.ts';
import type { HistoryCounts } from '../../../tools/bench/work.ts';

/** A history exactly at the budget, with the counts that have none. */
const atBudget: HistoryCounts = { ...HISTORY_BUDGET, workflow_tasks_failed: 0, signals: 0, runs: 1 };

describe('benchmark budget and floors', () => {
  describe('the history budget', () => {
    it('a history at or under its budget passes, and the report says nothing', () => {
      assert.deepEqual(overBudget(atBudget), []);
      assert.equal(overBudgetReport(atBudget), undefined);
      assert.equal(overBudgetReport({ ...atBudget, workflow_tasks: atBudget.workflow_tasks - 1 }), undefined);
    });

    it('a history over it names each count over, its budget and the excess, and lists every count with its goal', () => {
      const budget = { ...HISTORY_BUDGET, history_events: 41, search_attribute_upserts: 6, workflow_tasks: 4 };
      const counts = { ...atBudget, history_events: 44, search_attribute_upserts: 7, workflow_tasks: 4 };
      assert.deepEqual(overBudget(counts, budget), [
        { count: 'history_events', measured: 44, budget: 41, excess: 3 },
        { count: 'search_attribute_upserts', measured: 7, budget: 6, excess: 1 },
      ]);
      const report = overBudgetReport(counts, budget, { history_events: 20, workflow_tasks: 3 })!;
      const [summary, ...lines] = report.split('\n');
      assert.equal(
        summary,
        'over its budget (tools/bench/budget.ts): history_events 44 > 41 (+3), search_attribute_upserts 7 > 6 (+1)',
      );
      assert.equal(lines.length, Object.keys(HISTORY_BUDGET).length);
      assert.ok(lines.includes('OVER history_events: 44, budget 41, goal ≤ 20 (+3)'), report);
      assert.ok(lines.includes('     workflow_tasks: 4, budget 4, goal ≤ 3'), report);
      assert.ok(lines.includes('OVER search_attribute_upserts: 7, budget 6 (+1)'), report);
    });

    it('every goal is at or under its count’s budget: the budget only comes down to it', () => {
      for (const [count, goal] of Object.entries(HISTORY_GOAL))
        assert.ok(goal <= HISTORY_BUDGET[count as keyof typeof HISTORY_BUDGET], count);
    });

    it('a history with a failed workflow task or an activity task is off the budgeted path, and says why', () => {
      assert.equal(offTheBudgetedPath(atBudget), undefined);
      assert.equal(
        offTheBudgetedPath({ ...atBudget, workflow_tasks_failed: 1, activity_tasks: 2 }),
        '1 workflow task(s) timed out or failed, 2 activity task(s)',
      );
    });
  });

  describe('the ratio floors (--check)', () => {
    const floors = { create_to_baseline: 0.66, full_flow_to_baseline: 0.11 };
    const goals = { create_to_baseline: 0.9, full_flow_to_baseline: 0.25 };

    it('a run at or above every floor passes, each ratio printed against its floor and goal', () => {
      assert.deepEqual(checkRatios({ create_to_baseline: 0.78, full_flow_to_baseline: 0.11 }, floors, goals), {
        lines: [
          'ok    create_to_baseline: 0.78, floor 0.66, goal 0.9',
          'ok    full_flow_to_baseline: 0.11, floor 0.11, goal 0.25',
        ],
        below: [],
      });
    });

    it('a ratio below its floor, or not measured at all (NaN), fails and is named', () => {
      assert.deepEqual(checkRatios({ create_to_baseline: 0.65, full_flow_to_baseline: 0.13 }, floors, goals), {
        lines: [
          'BELOW create_to_baseline: 0.65, floor 0.66, goal 0.9',
          'ok    full_flow_to_baseline: 0.13, floor 0.11, goal 0.25',
        ],
        below: ['create_to_baseline'],
      });
      assert.deepEqual(
        checkRatios({ create_to_baseline: Number.NaN, full_flow_to_baseline: 0.1 }, floors, goals).below,
        ['create_to_baseline', 'full_flow_to_baseline'],
      );
    });

    it('every floor is under its goal: the floors only rise to them', () => {
      for (const [ratio, floor] of Object.entries(RATIO_FLOORS))
        assert.ok(floor < RATIO_GOALS[ratio as keyof typeof RATIO_GOALS], ratio);
    });
  });
});
