import assert from 'node:assert/strict';
import { AUDIT_ACTIONS, isAuditAction } from '../../../src/domain/audit.ts';
import { strings } from '../../../src/dashboard/i18n.ts';
import { windowStartOf } from '../../../src/db/rate-limits.ts';

describe('audit actions', () => {
  it('every action has words in both languages, and no words name an action that is not in the list', () => {
    for (const lang of ['fa', 'en'] as const) {
      const t = strings(lang) as unknown as Record<string, unknown>;
      for (const action of AUDIT_ACTIONS) assert.ok((t[`audit_${action}`] ?? '') !== '', `${lang}: audit_${action}`);
      for (const key of Object.keys(t).filter((k) => k.startsWith('audit_')))
        assert.ok(isAuditAction(key.slice('audit_'.length)), `${lang}: ${key} is no action`);
    }
    assert.equal(new Set(AUDIT_ACTIONS).size, AUDIT_ACTIONS.length);
    assert.ok(
      AUDIT_ACTIONS.every((a) => a.length <= 40),
      'fits audit_log.action',
    );
  });

  it('rate-limit windows are aligned to the clock', () => {
    assert.equal(windowStartOf(1_000_123, 60_000), 960_000);
    assert.equal(windowStartOf(960_000, 60_000), 960_000);
  });
});
