/**
 * A merchant's PSP routes as the merchant may see them (docs/psps/routing.md): the route of each
 * mode as the operator set it, or the default one (every configured PSP), without the terminals
 * reserved for other merchants (its payments skip them). Read-only: the operator sets routes and
 * reservations with the CLI.
 */
import type { Db } from '../db/database.ts';
import { merchantRoute, terminalReservations } from '../db/psp-routes.ts';
import { defaultRoute, mayUseTerminal, type RouteEntry } from '../domain/psp-routing.ts';
import { configuredTerminals, pspClientsFromConfig, type BankConfig } from '../psps/clients.ts';

export interface MerchantRouteView {
  mode: 'test' | 'live';
  /** `merchant`: the operator set this merchant's route; `default`: every configured PSP, in the registry's order. */
  source: 'merchant' | 'default';
  entries: RouteEntry[];
}

/** The merchant's route of each mode, test first, each without the terminals reserved for other merchants. */
export async function merchantRoutes(db: Db, config: BankConfig, merchantId: string): Promise<MerchantRouteView[]> {
  const clients = pspClientsFromConfig(config);
  const reservations = await terminalReservations(db);
  const usable = (entries: RouteEntry[]) => entries.filter((e) => mayUseTerminal(reservations, merchantId, e));
  return Promise.all(
    (['test', 'live'] as const).map(async (mode) => {
      const set = await merchantRoute(db, merchantId, mode);
      if (set.length > 0) return { mode, source: 'merchant' as const, entries: usable(set) };
      return { mode, source: 'default' as const, entries: usable(defaultRoute(configuredTerminals(clients, mode))) };
    }),
  );
}
