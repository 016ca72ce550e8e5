import assert from 'node:assert/strict';
import { decodeCursor, encodeCursor, pageOf, rowCursor } from '../../../src/db/pagination.ts';
import { DomainError } from '../../../src/errors.ts';

const isInvalidCursor = (error: unknown) =>
  error instanceof DomainError &&
  error.code === 'validation_failed' &&
  error.status === 422 &&
  error.details?.[0]?.path === 'cursor';

describe('list cursors', () => {
  it('decode to the created_at and id they were made of', () => {
    const cursor = { created_at: '2025-03-01T10:30:00.123Z', id: '5f0c6a0e-8a4b-4c1e-9d7e-2b1f3a4c5d6e' };
    assert.deepEqual(decodeCursor(encodeCursor(cursor)), cursor);
  });

  it('are URL-safe text', () => {
    const text = encodeCursor({ created_at: '2025-03-01T10:30:00.123Z', id: '???>>>~~~' });
    assert.match(text, /^[A-Za-z0-9_-]+$/);
    assert.equal(encodeURIComponent(text), text);
  });

  it('of a row are its created_at in ISO form and its id', () => {
    assert.deepEqual(rowCursor({ created_at: new Date(Date.UTC(2025, 2, 1, 10, 30, 0, 123)), id: 'p1' }), {
      created_at: '2025-03-01T10:30:00.123Z',
      id: 'p1',
    });
  });

  const garbage: Record<string, string> = {
    'an empty string': '',
    'text that is not base64': '%%%not a cursor%%%',
    'base64 of text that is not JSON': Buffer.from('not-a-cursor').toString('base64url'),
    'base64 of a JSON object': Buffer.from('{"created_at":"2025-03-01T10:30:00Z","id":"p1"}').toString('base64url'),
    'base64 of a pair of numbers': Buffer.from('[1,2]').toString('base64url'),
    'base64 of a pair whose time is not a time': Buffer.from('["yesterday","p1"]').toString('base64url'),
    'base64 of a pair without an id': Buffer.from('["2025-03-01T10:30:00Z"]').toString('base64url'),
    'base64 of JSON null': Buffer.from('null').toString('base64url'),
  };
  for (const [what, text] of Object.entries(garbage)) {
    it(`refuse ${what} with a validation error on cursor`, () => {
      assert.throws(() => decodeCursor(text), isInvalidCursor);
    });
  }
});

describe('pages', () => {
  const rows = [5, 4, 3].map((n) => ({ id: `p${n}`, created_at: new Date(Date.UTC(2025, 0, n)) }));

  it('keep `limit` rows and point the next cursor at the last one kept when there are more', () => {
    const page = pageOf(rows, 2, (r) => r.id, rowCursor);
    assert.deepEqual(page.data, ['p5', 'p4']);
    assert.equal(page.has_more, true);
    assert.deepEqual(decodeCursor(page.next_cursor ?? ''), { created_at: '2025-01-04T00:00:00.000Z', id: 'p4' });
  });

  it('have no next cursor when every row fits', () => {
    assert.deepEqual(
      pageOf(rows, 3, (r) => r.id, rowCursor),
      { data: ['p5', 'p4', 'p3'], has_more: false, next_cursor: null },
    );
    assert.deepEqual(
      pageOf([], 3, (r: { id: string; created_at: Date }) => r.id, rowCursor),
      { data: [], has_more: false, next_cursor: null },
    );
  });
});
