/**
 * The settlements area: the live balance and settlements, one settlement with
 * its lines, and the lines as CSV. Each is the API's: the same functions of
 * src/settlements/service.ts (`GET /balance`, `/settlements`,
 * `/settlements/{id}`, `/settlements/{id}/lines.csv`), scoped to the
 * signed-in user's merchant, so another merchant's settlement is not found
 * here either. Settlements are live only: test payments are never settled.
 */
import { SETTLEMENT_LINE_KINDS, type ListSettlementsQuery } from '../domain/settlement-schemas.ts';
import { SETTLEMENT_STATUSES, type SettlementStatus } from '../domain/settlement.ts';
import { sendCsv } from '../http/csv.ts';
import { tehranMidnight } from '../payments/overview.ts';
import {
  beneficiaryPayoutsOfSettlement,
  getBalance,
  getSettlementLinesPage,
  listSettlements,
  settlementLinesCsv,
  type LineKey,
} from '../settlements/service.ts';
import { CURSOR, idInPath, modeOf, tenantOfUser, UUID, type DashboardKit, type SignedInRequest } from './kit.ts';
import { settlementPage, settlementsPage, type SettlementFilters } from './settlement-views.ts';
import { hrefWith } from './views.ts';

const SETTLEMENTS_PER_PAGE = 20;
/** A settlement may cover thousands of payments: its page shows them this many at a time, the CSV all. */
const LINES_PER_PAGE = 100;

/** A calendar day as a date field sends it, if it is one. */
function dayOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  // 2026-02-31 is not a day: Date would make it March 3rd.
  return new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value ? value : undefined;
}

/** The filters of the list's form; what is not a status or a day is no filter, as the payments list does. */
export function settlementFilters(query: Record<string, unknown>): SettlementFilters {
  const status = SETTLEMENT_STATUSES.find((s): s is SettlementStatus => s === query.status);
  return { status, from: dayOf(query.from), to: dayOf(query.to) };
}

/** The filters as the API's list query: Tehran days as instants, `to` included (before the next day's midnight). */
export function settlementListQuery(filters: SettlementFilters): Omit<ListSettlementsQuery, 'limit' | 'cursor'> {
  const query: Omit<ListSettlementsQuery, 'limit' | 'cursor'> = {};
  if (filters.status !== undefined) query.status = filters.status;
  if (filters.from !== undefined) query.created_gte = tehranMidnight(filters.from).toISOString();
  if (filters.to !== undefined) {
    const [y, m, d] = filters.to.split('-').map(Number) as [number, number, number];
    query.created_lt = tehranMidnight(new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10)).toISOString();
  }
  return query;
}

/** A page of lines starts after the line `<kind>:<object id>`, the last of the page before. */
export function lineKeyOf(value: unknown): LineKey | undefined {
  if (typeof value !== 'string') return undefined;
  const [kind, objectId] = value.split(':');
  return SETTLEMENT_LINE_KINDS.some((k) => k === kind) && objectId !== undefined && UUID.test(objectId)
    ? { kind: kind!, object_id: objectId }
    : undefined;
}

export function settlementPages({ router, deps, signedIn, html }: DashboardKit): void {
  const { db, config, logger } = deps;
  const liveTenant = (request: SignedInRequest) => tenantOfUser(request.user, 'live');

  router.get(
    '/dashboard/settlements',
    signedIn(async (request) => {
      const { ctx } = request;
      if (modeOf(ctx.query.mode) === 'test') {
        html(ctx, settlementsPage(request.view('settlements'), { mode: 'test' }));
        return;
      }
      const tenant = liveTenant(request);
      const filters = settlementFilters(ctx.query);
      const cursor =
        typeof ctx.query.cursor === 'string' && CURSOR.test(ctx.query.cursor) ? ctx.query.cursor : undefined;
      // The figures GET /balance answers, from the same function.
      const balance = await getBalance(db, tenant, config);
      const page = await listSettlements(db, tenant, {
        limit: SETTLEMENTS_PER_PAGE,
        ...settlementListQuery(filters),
        ...(cursor ? { cursor } : {}),
      });
      html(
        ctx,
        settlementsPage(request.view('settlements'), {
          mode: 'live',
          balance,
          holdHours: config.SETTLEMENT_HOLD_HOURS,
          filters,
          settlements: page.data,
          nextCursor: page.next_cursor,
          paged: cursor !== undefined,
        }),
      );
    }),
  );

  router.get(
    '/dashboard/settlements/:id',
    signedIn(async (request) => {
      const id = idInPath(request);
      const after = lineKeyOf(request.ctx.query.after);
      const found = await getSettlementLinesPage(db, liveTenant(request), id, { limit: LINES_PER_PAGE, after });
      const beneficiaryPayouts = await beneficiaryPayoutsOfSettlement(db, liveTenant(request), id);
      const path = `/dashboard/settlements/${id}`;
      html(
        request.ctx,
        settlementPage(request.view('settlements'), {
          ...found,
          beneficiaryPayouts,
          nextHref:
            found.next === null ? undefined : hrefWith(path, { after: `${found.next.kind}:${found.next.object_id}` }),
          firstHref: after === undefined ? undefined : path,
          csvHref: `${path}/lines.csv`,
        }),
      );
    }),
  );

  router.get(
    '/dashboard/settlements/:id/lines.csv',
    signedIn(async (request) => {
      // An unknown id is the not-found page, before the first byte of the file.
      sendCsv(
        request.ctx,
        { ...(await settlementLinesCsv(db, liveTenant(request), idInPath(request))), what: 'settlement lines' },
        logger,
      );
    }),
  );
}
