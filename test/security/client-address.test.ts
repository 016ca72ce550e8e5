/**
 * Real client addresses behind the proxy (docs/SECURITY.md, "Threats and their tests"): an API
 * behind a trusted proxy (TRUSTED_PROXIES; this test's requests come from 127.0.0.1, where
 * HAProxy stands in a deployment, and say whom they forward in X-Forwarded-For) throttles
 * sign-in per client address and per account from each address, and records the client's
 * address in the audit log. An IPv6 client is counted by its /64 (src/domain/client-bucket.ts).
 * Without a trusted proxy the header is nobody's word.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { confirmEmail, signUp, SIGN_IN_LIMITS } from '../../src/accounts/accounts.ts';
import type { Mail } from '../../src/adapters/mailer.ts';
import { PASSWORD } from '../support/dashboard.ts';
import { apiWith, getHarness } from '../support/harness.ts';

/** A signed-up, confirmed dashboard user; answers its email. */
async function confirmedUser(): Promise<string> {
  const h = await getHarness();
  const sent: Mail[] = [];
  const mailer = { send: (m: Mail) => Promise.resolve(void sent.push(m)), close: () => undefined };
  const email = `proxied-${randomUUID()}@example.com`;
  await signUp(
    { db: h.db, config: h.config, mailer },
    { email, password: PASSWORD, businessName: 'Proxied shop', lang: 'en', address: '127.0.0.1' },
  );
  await confirmEmail(
    h.db,
    new URL(/https?:\/\/\S+/.exec(sent.find((m) => m.to === email)!.text)![0]).searchParams.get('token')!,
  );
  return email;
}

/** The dashboard's sign-in form posted as a browser behind the proxy would: answers the status (303 signed in, 401 refused). */
async function signIn(base: string, email: string, password: string, forwardedFor?: string): Promise<number> {
  const forwarded: Record<string, string> = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  const form = await fetch(`${base}/dashboard/sign-in?lang=en`, { headers: forwarded });
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  const token = /name="csrf_token" value="([^"]+)"/.exec(await form.text())![1]!;
  const res = await fetch(`${base}/dashboard/sign-in?lang=en`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: base, ...forwarded },
    body: new URLSearchParams({ email, password, csrf_token: token }).toString(),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Distinct documentation addresses (RFC 5737) per test run, so windows of earlier runs never count. */
const run = Math.floor(Math.random() * 200);
const address = (n: number) => `198.51.${run}.${n}`;

describe('client addresses behind a trusted proxy', function () {
  this.timeout(120_000);
  let proxied: string;
  let direct: string;

  before(async () => {
    proxied = await apiWith({ TRUSTED_PROXIES: '127.0.0.1/32' });
    direct = await apiWith({});
  });

  // The throttle counts in fixed windows aligned to the clock (SIGN_IN_LIMITS.windowSeconds): a test
  // whose attempts straddle a window's end would see its counts start over, and a refusal it expects
  // would not come (seen once, at 10:30:00). Each test starts at least 30 s before the window ends.
  beforeEach(async function () {
    const windowMs = SIGN_IN_LIMITS.windowSeconds * 1000;
    const left = windowMs - (Date.now() % windowMs);
    if (left < 30_000) await sleep(left + 100);
  });

  it('wrong sign-ins from one client lock out that client, not everyone behind the proxy', async () => {
    const owner = await confirmedUser();
    const attacker = address(1);
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i += 1) {
      assert.equal(await signIn(proxied, `guess-${i}-${randomUUID()}@example.com`, 'wrong password', attacker), 401);
    }
    assert.equal(await signIn(proxied, owner, PASSWORD, attacker), 401, 'the attacking address is throttled');
    assert.equal(await signIn(proxied, owner, PASSWORD, address(2)), 303, 'the owner, at another address, signs in');
  });

  it("a third party's wrong passwords for the owner's account do not lock the owner out", async () => {
    const owner = await confirmedUser();
    const attacker = address(3);
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i += 1)
      assert.equal(await signIn(proxied, owner, `wrong password ${i}`, attacker), 401);
    assert.equal(
      await signIn(proxied, owner, PASSWORD, attacker),
      401,
      'the account is throttled from the attacking address',
    );
    // A client writing another address to the left of the proxy's hop is still the attacker.
    assert.equal(
      await signIn(proxied, owner, PASSWORD, `${address(4)}, ${attacker}`),
      401,
      'a forged left-most hop changes nothing',
    );
    assert.equal(await signIn(proxied, owner, PASSWORD, address(4)), 303, 'the owner signs in from their own address');
  });

  it('an IPv6 client is throttled by its /64: another address of it is no way round, another /64 is another client', async () => {
    const owner = await confirmedUser();
    // A /64 of the documentation range (RFC 3849) of this run's own; the attacker takes a fresh address of it each time.
    const prefix = `2001:db8:${run.toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i += 1) {
      const from = `${prefix}:${(i + 1).toString(16)}::${(i + 7).toString(16)}`;
      assert.equal(await signIn(proxied, `guess-${i}-${randomUUID()}@example.com`, 'wrong password', from), 401);
    }
    assert.equal(
      await signIn(proxied, owner, PASSWORD, `${prefix}:abcd:ef01:2345:6789`),
      401,
      'a fresh address of the same /64 is the same throttled client',
    );
    assert.equal(
      await signIn(proxied, owner, PASSWORD, `${prefix.replace(/:[0-9a-f]+$/, ':ffff')}::1`),
      303,
      'the owner, in another /64, signs in',
    );
  });

  it("the audit log records the client's address, not the proxy's", async () => {
    const h = await getHarness();
    const owner = await confirmedUser();
    assert.equal(await signIn(proxied, owner, PASSWORD, address(5)), 303);
    const user = await h.db.selectFrom('users').select('id').where('email', '=', owner).executeTakeFirstOrThrow();
    const rows = await h.db
      .selectFrom('audit_log')
      .select(['action', 'address'])
      .where('user_id', '=', user.id)
      .execute();
    assert.ok(rows.length > 0, 'the sign-in is audited');
    for (const row of rows) assert.equal(row.address, address(5), `${row.action} from the client's address`);
  });

  it("without a trusted proxy, X-Forwarded-For is nobody's word: the peer is the client", async () => {
    const owner = await confirmedUser();
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i += 1)
      assert.equal(await signIn(direct, owner, `wrong password ${i}`, address(6)), 401);
    assert.equal(
      await signIn(direct, owner, PASSWORD, address(7)),
      401,
      'another forwarded address does not escape the throttle',
    );
  });
});
