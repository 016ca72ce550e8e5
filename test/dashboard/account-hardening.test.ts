/**
 * The account's throttles and hashes against the real MariaDB and a real SMTP receiver: the pending
 * sign-in counts before it decides (200 concurrent wrong codes judge only CHALLENGE.failures of them),
 * recovery codes are hashed under each user's own key, sign-up to a known address mails its owner a
 * capped number of times, and forgot-password answers before the mail server has taken its message.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { AccountError, confirmEmail, SIGN_UPS_PER_EMAIL_PER_HOUR, signUp } from '../../src/accounts/accounts.ts';
import { UNSOLICITED_MAIL_PER_HOUR } from '../../src/accounts/owner-mail.ts';
import { requestPasswordReset } from '../../src/accounts/password-reset.ts';
import { secretBox } from '../../src/accounts/secret-box.ts';
import {
  CHALLENGE,
  enableTwoFactor,
  passChallenge,
  pendingTotpSecret,
  startChallenge,
  useSecondFactor,
} from '../../src/accounts/two-factor.ts';
import { createMailer } from '../../src/adapters/mailer.ts';
import { PASSWORD } from '../support/dashboard.ts';
import { getHarness, type Harness } from '../support/harness.ts';
import { waitFor } from '../support/http.ts';
import { startMailbox, type Mailbox } from '../support/mailbox.ts';

const box = secretBox('tB9x2LqV7mZ4rK1wP8sD5nH3jF6gC0yQ');

describe('account hardening: atomic throttles, salted recovery codes, capped and background email', function () {
  this.timeout(120_000);
  let h: Harness;
  let mailbox: Mailbox;
  let mailer: ReturnType<typeof createMailer>;

  before(async () => {
    h = await getHarness();
    mailbox = await startMailbox();
    mailer = createMailer({ SMTP_URL: mailbox.url, MAIL_FROM: 'Dargah <no-reply@example.com>' });
  });
  after(async () => {
    mailer.close();
    await mailbox.close();
  });

  const deps = () => ({ db: h.db, config: h.config, mailer, logger: h.logger });

  /** A signed-up, confirmed user; answers the address and the user's id. */
  async function confirmedUser(): Promise<{ email: string; userId: string }> {
    const email = `hardening-${randomUUID()}@example.com`;
    await signUp(deps(), {
      email,
      password: PASSWORD,
      businessName: 'Hardening shop',
      lang: 'en',
      address: '127.0.0.1',
    });
    const mail = await mailbox.next(email);
    await confirmEmail(h.db, new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('token')!);
    const { id } = await h.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    return { email, userId: id };
  }

  /** Two-step sign-in on through the service, with the app's first code; answers the TOTP and the recovery codes. */
  async function withTwoFactor(userId: string): Promise<{ totp: TOTP; codes: string[] }> {
    const secret = await pendingTotpSecret({ db: h.db, box }, userId);
    const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
    const codes = await enableTwoFactor({ db: h.db, box }, userId, totp.generate());
    return { totp, codes };
  }

  it('200 concurrent wrong codes on one pending sign-in: exactly CHALLENGE.failures are judged, the rest find it used up', async () => {
    const { userId } = await confirmedUser();
    const { totp } = await withTwoFactor(userId);
    const right = totp.generate();
    const wrong = `${(Number(right[0]) + 5) % 10}${right.slice(1)}`;
    const address = `203.0.113.${1 + Math.floor(Math.random() * 250)}`;
    const token = await startChallenge(h.db, userId);
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, () =>
        passChallenge({ db: h.db, box }, token, wrong, address).then(
          () => 'passed',
          (e: unknown) => (e instanceof AccountError ? e.code : String(e)),
        ),
      ),
    );
    const judged = outcomes.filter((o) => o === 'invalid_code').length;
    const ended = outcomes.filter((o) => o === 'invalid_link').length;
    assert.equal(judged, CHALLENGE.failures, `codes judged: ${judged}`);
    assert.equal(ended, 200 - CHALLENGE.failures);
    const row = await h.db
      .selectFrom('user_sign_in_challenges')
      .select('failures')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    assert.equal(row.failures, CHALLENGE.failures);
    // Used up: the right code no longer opens it.
    await assert.rejects(
      passChallenge({ db: h.db, box }, token, right, address),
      (e: unknown) => e instanceof AccountError && e.code === 'invalid_link',
    );
  });

  it("recovery codes are hashed under each user's own key: one user's stored hashes open nothing for another", async () => {
    const a = await confirmedUser();
    const b = await confirmedUser();
    const { codes: codesA } = await withTwoFactor(a.userId);
    await withTwoFactor(b.userId);
    const rowsA = await h.db.selectFrom('user_recovery_codes').selectAll().where('user_id', '=', a.userId).execute();
    // A's hashes planted as B's (a copied table, or hashes precomputed for a guessed code): B does not take A's code.
    await h.db.deleteFrom('user_recovery_codes').where('user_id', '=', a.userId).execute();
    await h.db
      .insertInto('user_recovery_codes')
      .values(rowsA.map((r) => ({ ...r, user_id: b.userId })))
      .execute();
    await assert.rejects(
      useSecondFactor({ db: h.db, box }, b.userId, codesA[0]!),
      (e: unknown) => e instanceof AccountError && e.code === 'invalid_code',
    );
    const keys = await h.db
      .selectFrom('users')
      .select('recovery_code_key')
      .where('id', 'in', [a.userId, b.userId])
      .execute();
    assert.equal(keys.filter((k) => k.recovery_code_key !== null && k.recovery_code_key.length === 32).length, 2);
    assert.ok(!keys[0]!.recovery_code_key!.equals(keys[1]!.recovery_code_key!));
  });

  it('sign-up to a known address: the same answer, a throttle per address and a cap of mail per recipient', async () => {
    const { email } = await confirmedUser();
    const before = mailbox.received.filter((m) => m.to.includes(email)).length;
    for (let i = 0; i < 10; i += 1) {
      // The same answer every time: nothing is thrown, nothing is told.
      await signUp(deps(), {
        email,
        password: 'another long and memorable phrase',
        businessName: 'Copycat',
        lang: 'en',
        address: '127.0.0.1',
      });
    }
    // The first sign-up made the account; of the next nine only those within the address's hourly sign-ups mail the owner.
    const notes = SIGN_UPS_PER_EMAIL_PER_HOUR - 1;
    assert.ok(notes <= UNSOLICITED_MAIL_PER_HOUR);
    await waitFor('the notes', () =>
      Promise.resolve(mailbox.received.filter((m) => m.to.includes(email)).length - before >= notes ? true : undefined),
    );
    // A last message as a marker: every note sent before it has arrived once it has.
    await mailer.send({ to: email, subject: 'marker', text: 'marker' });
    await waitFor('the marker', () =>
      Promise.resolve(mailbox.received.some((m) => m.to.includes(email) && m.subject === 'marker') ? true : undefined),
    );
    const tried = mailbox.received.filter((m) => m.to.includes(email) && /tried to sign up/.test(m.subject));
    assert.equal(tried.length, notes);
    assert.equal((await h.db.selectFrom('users').select('id').where('email', '=', email).execute()).length, 1);
  });

  it('sign-up is throttled per client address: past DASHBOARD_SIGN_UPS_PER_CLIENT_PER_HOUR the same answer, and nothing is made or mailed', async () => {
    const limit = 2;
    const config = { ...h.config, DASHBOARD_SIGN_UPS_PER_CLIENT_PER_HOUR: limit };
    const client = `192.0.2.${1 + Math.floor(Math.random() * 250)}-${randomUUID().slice(0, 8)}`;
    const emails = Array.from({ length: limit + 2 }, () => `client-${randomUUID()}@example.com`);
    for (const email of emails)
      await signUp(
        { ...deps(), config },
        { email, password: PASSWORD, businessName: 'Busy client', lang: 'en', address: client },
      );
    const made = await h.db.selectFrom('users').select('email').where('email', 'in', emails).execute();
    assert.deepEqual(made.map((u) => u.email).sort(), emails.slice(0, limit).sort());
    for (const email of emails.slice(0, limit)) await mailbox.next(email);
    // A marker after the last: the refused ones were mailed nothing.
    await mailer.send({ to: emails.at(-1)!, subject: 'marker', text: 'marker' });
    await waitFor('the marker', () =>
      Promise.resolve(
        mailbox.received.some((m) => m.to.includes(emails.at(-1)!) && m.subject === 'marker') ? true : undefined,
      ),
    );
    assert.equal(
      mailbox.received.filter((m) => emails.slice(limit).some((e) => m.to.includes(e)) && m.subject !== 'marker')
        .length,
      0,
    );
  });

  it('forgot-password answers before the mail server has taken the message (mail in the background)', async () => {
    const { email } = await confirmedUser();
    const release = mailbox.hold();
    try {
      const account = await requestPasswordReset(deps(), { email, lang: 'en' });
      assert.ok(account !== undefined);
      assert.equal(
        mailbox.received.filter((m) => m.to.includes(email) && /Reset your/.test(m.subject)).length,
        0,
        'answered while the mail server holds the message',
      );
    } finally {
      release();
    }
    await waitFor('the reset email', () =>
      Promise.resolve(mailbox.received.find((m) => m.to.includes(email) && /Reset your/.test(m.subject))),
    );
    // An unknown address: the same answer (nothing), and no mail.
    assert.equal(
      await requestPasswordReset(deps(), { email: `nobody-${randomUUID()}@example.com`, lang: 'en' }),
      undefined,
    );
  });
});
