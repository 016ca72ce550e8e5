/**
 * SEP's simulator (BANK_SIM_PROTOCOL=sep, the default): its REST calls (simulator-rest.ts), Paya payouts
 * (src/bank-sim/payouts.ts) and its page (src/bank-sim/customer-page.ts's SEP_PAGE), as its conformance corpus shows them
 * (test/fixtures/psps/sep/, docs/psps/sep.md).
 */
import { SEP_PAGE } from '../../bank-sim/customer-page.ts';
import { payoutRoutes } from '../../bank-sim/payouts.ts';
import { sepRestRoutes } from './simulator-rest.ts';
import type { SimulatorProtocol } from '../../bank-sim/simulator-protocol.ts';

export const SEP_SIMULATOR: SimulatorProtocol = {
  name: 'sep',
  title: "SEP's REST IPG",
  defaults: { port: 3100, terminalId: '11223344', autoReverseSeconds: 1800, settings: {} },
  page: SEP_PAGE,
  routes: ({ ledger, faults, options }) => [
    sepRestRoutes({ ledger, faults, options }),
    payoutRoutes({ ledger, faults, terminalId: options.terminalId }),
  ],
};
