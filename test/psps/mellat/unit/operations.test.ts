/**
 * The Mellat connector calls only what Behpardakht's references show: every SOAP operation
 * MellatClient can call, found two ways (by calling every operation of the client against a loopback
 * bank that records what it receives, and by reading the connector's source for every `bp…Request`
 * name it spells), must be one the conformance corpus has a request of. A call no reference shows (an
 * invented report, an inquiry with a made-up reference) fails here before it can fail at Behpardakht.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MellatClient } from '../../../../src/psps/mellat/client.ts';
import { MELLAT_OPERATIONS } from '../../../../src/psps/mellat/simulator-wsdl.ts';
import { CorpusBank } from '../corpus-bank.ts';
import { isSoapRequest, loadMellatCorpus } from '../corpus.ts';

const CONNECTOR = join(import.meta.dirname, '..', '..', '..', '..', 'src', 'psps', 'mellat');
const shown = new Set(
  loadMellatCorpus()
    .filter(isSoapRequest)
    .map((m) => m.message.soapOperation),
);

describe("the Mellat connector's outgoing operations", () => {
  it('every operation the client makes is one a corpus request shows', async () => {
    const bank = await new CorpusBank().start();
    try {
      for (const op of shown) bank.answer(op, 'soap-fault');
      const mellat = new MellatClient({
        baseUrl: bank.url,
        terminalId: '1234',
        userName: 'username',
        password: 'password',
        timeoutMs: 5_000,
      });
      // Every method the client has, with what each takes; a method added later and not listed here fails below.
      const exercised: Record<string, () => Promise<unknown>> = {
        requestToken: () => mellat.requestToken('p-1', 1_000, 'http://callback.test'),
        confirm: () => mellat.confirm('p-1', '227926981246', 1_000),
        settle: () => mellat.settle('p-1', '227926981246'),
        reverse: () => mellat.reverse('p-1', '227926981246'),
        inquire: () => mellat.inquire('p-1', { ref_num: '227926981246', token: 'AF82041a2Bf6989c7fF9' }),
        refund: () => mellat.refund('p-1', '227926981246', 'r-1', 400),
      };
      const methods = Object.getOwnPropertyNames(MellatClient.prototype).filter(
        (n) =>
          n !== 'constructor' &&
          typeof Object.getOwnPropertyDescriptor(MellatClient.prototype, n)?.value === 'function',
      );
      const offPath = new Set(['terminal', 'bySale', 'operation', 'call']);
      assert.deepEqual(
        methods.filter((n) => !offPath.has(n)).sort(),
        Object.keys(exercised).sort(),
        'every operation of the client is exercised here',
      );
      for (const run of Object.values(exercised)) await run().catch(() => undefined);
      const called = new Set(bank.calls.map((c) => c.operation));
      assert.deepEqual(
        [...called].sort(),
        [...shown].sort(),
        'the client calls every operation the corpus shows a request of, and no other',
      );
    } finally {
      await bank.stop();
    }
  });

  it("the connector's source names no Behpardakht operation the corpus does not show", () => {
    const named = new Set<string>();
    for (const file of readdirSync(CONNECTOR).filter((f) => f.endsWith('.ts') && !f.startsWith('simulator'))) {
      const code = readFileSync(join(CONNECTOR, file), 'utf8');
      for (const m of code.matchAll(/['"`](bp[A-Za-z]+Request)['"`]/g)) named.add(m[1]!);
    }
    assert.ok(named.size > 0, 'the connector names its operations');
    for (const op of named) {
      assert.ok(op in MELLAT_OPERATIONS, `${op} is an operation of Behpardakht's published interface`);
      assert.ok(shown.has(op), `${op} is shown by a corpus request`);
    }
  });

  it('has no daily report call: no reference documents one', () => {
    const mellat = new MellatClient({
      baseUrl: 'http://127.0.0.1:1',
      terminalId: '1',
      userName: 'u',
      password: 'p',
      timeoutMs: 1,
    });
    assert.equal((mellat as { dailyReport?: unknown }).dailyReport, undefined);
    assert.equal(mellat.capabilities.dailyReport, false);
  });
});
