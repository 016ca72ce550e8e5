/**
 * A PSP terminal reserved for some merchants (docs/psps/routing.md#terminals-reserved-for-some-merchants),
 * against MySQL, the API, the suite's payment worker and its two simulators (SEP and Mellat, each its
 * own process): `cli routing restrict` stores the reservation or refuses with the reason and writes
 * nothing; `routing set` refuses another merchant's reserved terminal; `routing show` and
 * `psps status` show it; and a payment of a merchant not listed is never sent to that terminal.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mellatOrderId } from '../../src/psps/mellat/mapping.ts';
import { bankAdmin, bankOperations, mellatSimulatorUrl } from '../support/bank.ts';
import { cli } from '../support/cli.ts';
import { getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { bankRedirectForm, createdPayment, pressPay } from '../support/payments.ts';

interface RouteView {
  source: string;
  entries: { psp: string; terminal_id: string; reserved_for: string[] | null; usable: boolean }[];
}

describe('a PSP terminal reserved for some merchants', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await getHarness();
  });

  const reservationRows = (terminalId: string) =>
    h.db
      .selectFrom('psp_terminal_reservations')
      .select(['psp', 'merchant_id'])
      .where('terminal_id', '=', terminalId)
      .orderBy('merchant_id')
      .execute();
  const routeRows = (merchantId: string) =>
    h.db
      .selectFrom('psp_routes')
      .select(['psp', 'terminal_id'])
      .where('merchant_id', '=', merchantId)
      .orderBy('position')
      .execute();
  const json = <T>(result: { code: number; stdout: string; stderr: string }): T => {
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout) as T;
  };

  it('the operator CLI: restrict stores it (or refuses and writes nothing), set refuses it to other merchants, show and psps status show it, --clear lifts it', async () => {
    const mellatTerminal = h.config.SANDBOX_MELLAT_TERMINAL_ID;
    const [{ merchantId: other }, { merchantId: listed }, { merchantId: alsoListed }] = await Promise.all([
      newMerchant(),
      newMerchant(),
      newMerchant(),
    ]);
    // A merchant whose own route names Mellat before the terminal is reserved.
    json(await cli('routing', 'set', '--merchant', other, '--mode', 'test', '--psps', 'sep,mellat', '--json'));

    // Refused, nothing written: an unknown merchant, a terminal this deployment does not configure, no merchants at all.
    const unknownMerchant = await cli(
      'routing',
      'restrict',
      '--psp',
      'mellat',
      '--terminal',
      mellatTerminal,
      '--merchants',
      `${listed},${randomUUID()}`,
    );
    assert.equal(unknownMerchant.code, 2);
    assert.match(unknownMerchant.stderr, /no merchant /);
    const unconfigured = await cli(
      'routing',
      'restrict',
      '--psp',
      'mellat',
      '--terminal',
      '99999999',
      '--merchants',
      listed,
    );
    assert.equal(unconfigured.code, 2);
    assert.match(unconfigured.stderr, /terminal 99999999 of mellat is not configured here/);
    const neither = await cli('routing', 'restrict', '--psp', 'mellat', '--terminal', mellatTerminal);
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /either --merchants .* or --clear/);
    assert.deepEqual(await reservationRows(mellatTerminal), []);

    const restricted = json<{ reserved_for: string[]; routes_skipping_it: string[] }>(
      await cli(
        'routing',
        'restrict',
        '--psp',
        'mellat',
        '--terminal',
        mellatTerminal,
        '--merchants',
        `${alsoListed},${listed},${listed}`,
        '--json',
      ),
    );
    assert.deepEqual(restricted.reserved_for, [listed, alsoListed].sort(), 'each merchant once');
    // Other tests' merchants may have routes naming it too: this one's is among them, the listed ones' never.
    assert.ok(restricted.routes_skipping_it.includes(other), 'the route that names it and will now skip it');
    assert.ok(!restricted.routes_skipping_it.includes(listed) && !restricted.routes_skipping_it.includes(alsoListed));
    assert.deepEqual(
      await reservationRows(mellatTerminal),
      [listed, alsoListed].sort().map((merchant_id) => ({ psp: 'mellat', merchant_id })),
    );

    // Another merchant may not put it in its route; its route stays as it was.
    const refused = await cli('routing', 'set', '--merchant', other, '--mode', 'test', '--psps', 'mellat');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, new RegExp(`terminal ${mellatTerminal} of mellat is reserved for other merchants`));
    assert.deepEqual(
      (await routeRows(other)).map((r) => r.psp),
      ['sep', 'mellat'],
    );
    // A listed merchant may.
    json(await cli('routing', 'set', '--merchant', listed, '--mode', 'test', '--psps', 'mellat,sep', '--json'));
    assert.deepEqual(
      (await routeRows(listed)).map((r) => [r.psp, r.terminal_id]),
      [
        ['mellat', mellatTerminal],
        ['sep', h.config.SANDBOX_SEP_TERMINAL_ID],
      ],
    );

    // show: the reservation on each entry, and whether this merchant's payments may use it.
    const shown = json<{ routes: { test: RouteView } }>(
      await cli('routing', 'show', '--merchant', other, '--mode', 'test', '--json'),
    ).routes.test;
    assert.deepEqual(
      shown.entries.map((e) => [e.psp, e.reserved_for, e.usable]),
      [
        ['sep', null, true],
        ['mellat', [listed, alsoListed].sort(), false],
      ],
    );
    const ofListed = json<{ routes: { test: RouteView } }>(
      await cli('routing', 'show', '--merchant', listed, '--mode', 'test', '--json'),
    ).routes.test;
    assert.deepEqual(
      ofListed.entries.map((e) => [e.psp, e.usable]),
      [
        ['mellat', true],
        ['sep', true],
      ],
    );
    // psps status: the terminal's reservation beside its breaker.
    const status = json<{ psps: { mode: string; psp: string; terminal_id: string; reserved_for: string[] | null }[] }>(
      await cli('psps', 'status', '--json'),
    );
    const testTerminals = status.psps.filter((p) => p.mode === 'test');
    assert.deepEqual(testTerminals.find((p) => p.psp === 'mellat')?.reserved_for, [listed, alsoListed].sort());
    assert.equal(testTerminals.find((p) => p.psp === 'sep')?.reserved_for, null);

    // --clear: anyone's again.
    const cleared = json<{ reserved_for: null }>(
      await cli('routing', 'restrict', '--psp', 'mellat', '--terminal', mellatTerminal, '--clear', '--json'),
    );
    assert.equal(cleared.reserved_for, null);
    assert.deepEqual(await reservationRows(mellatTerminal), []);
    json(await cli('routing', 'set', '--merchant', other, '--mode', 'test', '--psps', 'mellat', '--json'));
  });

  it("a payment of a merchant not listed is not sent to the reserved terminal (its default route's first); a listed merchant's is", async () => {
    const [{ merchantId: listed, key: listedKey }, { key: otherKey }] = await Promise.all([
      newMerchant(),
      newMerchant(),
    ]);
    // SEP's terminal, the default route's first, for `listed` only.
    json(
      await cli(
        'routing',
        'restrict',
        '--psp',
        'sep',
        '--terminal',
        h.config.SANDBOX_SEP_TERMINAL_ID,
        '--merchants',
        listed,
        '--json',
      ),
    );

    const others = await createdPayment(h.baseUrl, otherKey, { amount: 70_000 });
    const pay = await pressPay(h.baseUrl, others.id);
    assert.equal(pay.status, 200, 'our page with a form to the next PSP of the route, not a redirect to SEP');
    const form = bankRedirectForm(await pay.text());
    assert.ok(form?.url.endsWith('/pgwchannel/startpay.mellat'), `sent to Mellat: ${form?.url}`);
    const row = await h.db
      .selectFrom('payments')
      .select(['psp', 'psp_terminal_id'])
      .where('id', '=', others.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { psp: 'mellat', psp_terminal_id: h.config.SANDBOX_MELLAT_TERMINAL_ID });
    // SEP was never asked, not even for a token; Mellat gave it.
    assert.deepEqual(await bankOperations(others.id, 'token'), []);
    const atMellat = await bankAdmin<{ operations: { kind: string }[] }>(
      `/admin/transactions?res_num=${mellatOrderId(others.id)}`,
      mellatSimulatorUrl(),
    );
    assert.deepEqual(
      atMellat.operations.map((op) => op.kind),
      ['token'],
    );

    const listedPayment = await createdPayment(h.baseUrl, listedKey, { amount: 70_000 });
    const listedPay = await pressPay(h.baseUrl, listedPayment.id);
    assert.equal(listedPay.status, 303);
    assert.match(
      listedPay.headers.get('location') ?? '',
      /\/OnlinePG\/SendToken\?token=/,
      "the listed merchant's payment goes to SEP, its route's first",
    );
    assert.equal((await bankOperations(listedPayment.id, 'token')).length, 1);
  });
});
