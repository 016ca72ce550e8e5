import assert from 'node:assert/strict';
import type { Context } from 'koa';
import { CHALLENGE } from '../../../src/accounts/two-factor.ts';
import { dashboardCookies } from '../../../src/dashboard/cookies.ts';
import { csrfGuard } from '../../../src/http/csrf.ts';

/** The little of a Koa context the cookies touch: the Set-Cookie headers appended, the cookies and query sent. */
function fakeContext(
  sent: Record<string, string> = {},
  query: Record<string, string> = {},
): { ctx: Context; setCookies: string[] } {
  const setCookies: string[] = [];
  const ctx = {
    append: (name: string, value: string) => {
      assert.equal(name, 'Set-Cookie');
      setCookies.push(value);
    },
    cookies: { get: (name: string) => sent[name] },
    query,
  } as unknown as Context;
  return { ctx, setCookies };
}

describe('the Set-Cookie headers of the dashboard and the CSRF guard', () => {
  it('sets and clears the session and the sign-in challenge with the same attributes, Secure and __Host- over https only', () => {
    for (const [base, name, secure] of [
      ['http://localhost:3000', '', ''],
      ['https://pay.example', '__Host-', '; Secure'],
    ] as const) {
      const cookies = dashboardCookies(base);
      const { ctx, setCookies } = fakeContext();
      cookies.setSession(ctx, 'token');
      cookies.clearSession(ctx);
      cookies.setChallenge(ctx, 'pending');
      cookies.clearChallenge(ctx);
      assert.deepEqual(setCookies, [
        `${name}dargah_session=token; Path=/; HttpOnly; SameSite=Lax${secure}`,
        `${name}dargah_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`,
        `${name}dargah_sign_in=pending; Path=/; HttpOnly; SameSite=Lax; Max-Age=${CHALLENGE.seconds}${secure}`,
        `${name}dargah_sign_in=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`,
      ]);
    }
  });

  it('keeps the language asked for in a year-long cookie of the dashboard, readable by nothing but the language', () => {
    const asked = fakeContext({}, { lang: 'en' });
    assert.equal(dashboardCookies('https://pay.example').language(asked.ctx), 'en');
    assert.deepEqual(asked.setCookies, ['dargah_lang=en; Path=/dashboard; SameSite=Lax; Max-Age=31536000; Secure']);
    const kept = fakeContext({ dargah_lang: 'en' });
    assert.equal(dashboardCookies('http://localhost:3000').language(kept.ctx), 'en');
    assert.deepEqual(kept.setCookies, []);
    assert.equal(dashboardCookies('http://localhost:3000').language(fakeContext().ctx), 'fa');
  });

  it('sets the CSRF nonce on its own pages over http, and as __Host- on every path over https', () => {
    const options = { secret: 's', cookie: 'dargah_csrf', path: '/pay', purpose: 'dargah-pay-csrf' };
    const nonce = 'n'.repeat(43);
    const plain = fakeContext({ dargah_csrf: nonce });
    csrfGuard({ ...options, publicBaseUrl: 'http://localhost:3000' }).issue(plain.ctx);
    assert.deepEqual(plain.setCookies, [`dargah_csrf=${nonce}; Path=/pay; HttpOnly; SameSite=Lax`]);
    const secure = fakeContext({ '__Host-dargah_csrf': nonce });
    csrfGuard({ ...options, publicBaseUrl: 'https://pay.example' }).issue(secure.ctx);
    assert.deepEqual(secure.setCookies, [`__Host-dargah_csrf=${nonce}; Path=/; HttpOnly; SameSite=Lax; Secure`]);
  });
});
