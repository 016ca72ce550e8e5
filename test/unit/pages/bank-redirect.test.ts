/**
 * The page that takes the customer to a bank whose page wants a form POST (Behpardakht Mellat's
 * RefId, docs/psps/README.md): the fields in a form to the bank's address, a visible button in
 * the customer's language, no script; and the token's way to the bank, old tokens included.
 */
import assert from 'node:assert/strict';
import { bankPageOf } from '../../../src/payments/bank-return.ts';
import { bankRedirectPage } from '../../../src/pages/views.ts';

const bank = { url: 'https://bpm.example/pgwchannel/startpay.mellat', fields: { RefId: 'AF82041A2C"><b>' } };

describe('the bank redirect page', () => {
  it('posts the fields to the bank with a visible button, right to left in Persian', () => {
    const html = bankRedirectPage(bank, { lang: 'fa' }, true);
    assert.match(html, /<html lang="fa" dir="rtl">/);
    assert.match(
      html,
      /<form method="post" action="https:\/\/bpm\.example\/pgwchannel\/startpay\.mellat" id="bank-redirect">/,
    );
    assert.match(
      html,
      /<input type="hidden" name="RefId" value="AF82041A2C&quot;&gt;&lt;b&gt;">/,
      'the fields are escaped',
    );
    assert.match(html, /<button type="submit" id="continue"[^>]*>ادامه در صفحهٔ بانک<\/button>/);
    assert.doesNotMatch(html, /<script/);
  });

  it('speaks English with lang=en', () => {
    const html = bankRedirectPage(bank, { lang: 'en' }, false);
    assert.match(html, /<html lang="en" dir="ltr">/);
    assert.match(html, />Continue to the bank<\/button>/);
  });

  it("reads a token of a history from before two PSPs (no method) as SEP's GET", () => {
    assert.deepEqual(bankPageOf({ token: 't', url: 'https://sep.example/OnlinePG/SendToken?token=t' }), {
      url: 'https://sep.example/OnlinePG/SendToken?token=t',
      method: 'GET',
      fields: {},
    });
    assert.deepEqual(bankPageOf({ token: 'R', url: bank.url, method: 'POST', fields: { RefId: 'R' } }), {
      url: bank.url,
      method: 'POST',
      fields: { RefId: 'R' },
    });
  });
});
