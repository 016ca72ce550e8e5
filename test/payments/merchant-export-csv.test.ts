/**
 * Reconciliation (issue #13): the payments CSV report, streamed, kept to the
 * caller's merchant and mode, every field escaped by RFC 4180 and formula
 * starts defused; its refusals answered as JSON.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { NewPaymentRow } from '../../src/db/database.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { PAYMENTS_REPORT_COLUMNS } from '../../src/domain/report-schemas.ts';
import { csvField } from '../../src/payments/report.ts';
import { getHarness, newMerchant, startApi, testConfig } from '../support/harness.ts';
import { client, request } from '../support/http.ts';
import { shebaFor } from '../support/sheba.ts';
import {
  failingPaymentsDb,
  insertPayments,
  newestFirst,
  paymentRow,
  reportPath,
  writtenBy,
  type ErrorBody,
} from '../support/merchant-export.ts';

type Api = ReturnType<typeof client>;

/** An RFC 4180 reader: quoted fields, doubled quotes, CRLF record ends. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  assert.ok(!quoted && field === '' && record.length === 0, 'the file ends with a complete record and CRLF');
  return records;
}

/** The fields a payment's line must hold, formula-like starts defused; its shares' sum from GET /payments/{id}'s `splits`. */
function expectedFields(p: Payment): string[] {
  const defused = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
  const text = (v: string | number | null) => (v === null ? '' : defused(String(v)));
  const shares = (p.splits ?? []).reduce((sum, s) => sum + s.amount, 0);
  return [
    p.id,
    p.created_at,
    p.status,
    p.mode,
    p.amount,
    p.fee,
    p.refunded_amount,
    p.currency,
    p.merchant_reference,
    p.tracking_code,
    p.reference_id,
    p.rrn,
    p.card_pan,
    p.paid_at,
    p.verified_at,
    p.settlement_status,
    JSON.stringify(p.metadata),
    p.fee_payer,
    p.charged_amount,
    shares,
    p.verified_at === null ? null : p.charged_amount - p.fee - shares,
  ].map(text);
}

describe('reconciliation', function () {
  this.timeout(300_000);

  describe('GET /reports/payments.csv', () => {
    const FROM = '2024-06-01T00:00:00.000Z';
    const TO = '2024-06-02T00:00:00.000Z';
    const at = (ms: number) => new Date(Date.parse(FROM) + ms);
    let api: Api;
    let merchantId: string;
    let key: string;
    const inRange: NewPaymentRow[] = [];
    const HOSTILE = [
      '=HYPERLINK("http://evil.example","click")',
      'a,b "quoted", c',
      '+98-21-1234',
      '-2+3',
      '@SUM(A1:A2)',
      '\tindented',
      'two\r\nlines',
      'plain-order',
    ];

    before(async () => {
      const h = await getHarness();
      const m = await newMerchant();
      merchantId = m.merchantId;
      key = m.key;
      api = client(h.baseUrl, m.key);
      const other = await newMerchant();
      HOSTILE.forEach((reference, i) =>
        inRange.push(
          paymentRow(merchantId, {
            status: i % 2 === 0 ? 'verified' : 'created',
            amount: 100_000 + i,
            merchant_reference: reference,
            created_at: at(i * 60_000),
          }),
        ),
      );
      // Exactly at the start counts; one millisecond before it and exactly at the end do not; nor the other mode's or merchant's.
      inRange.push(paymentRow(merchantId, { status: 'paid', created_at: at(0) }));
      inRange.push(paymentRow(merchantId, { status: 'failed', created_at: at(86_400_000 - 1) }));
      const outside = [
        paymentRow(merchantId, { created_at: at(-1), merchant_reference: 'outside-before' }),
        paymentRow(merchantId, { created_at: at(86_400_000), merchant_reference: 'outside-after' }),
        paymentRow(merchantId, { mode: 'live', created_at: at(1_000), merchant_reference: 'outside-live' }),
        paymentRow(other.merchantId, { created_at: at(1_000), merchant_reference: 'outside-other' }),
      ];
      // The fee's columns: a verified payment whose customer paid the fee (1 % of 200,000 on top), and a verified split one.
      const customerPays = {
        ...paymentRow(merchantId, {
          status: 'verified',
          amount: 200_000,
          merchant_reference: 'customer-pays',
          created_at: at(3_600_000),
        }),
        fee: 2_000,
        fee_payer: 'customer',
        customer_fee: 2_000,
        charged_amount: 202_000,
      };
      const split = paymentRow(merchantId, {
        status: 'verified',
        amount: 500_000,
        merchant_reference: 'split',
        created_at: at(7_200_000),
      });
      inRange.push(customerPays, split);
      await insertPayments(h.db, [...inRange, ...outside]);
      const beneficiaryId = randomUUID();
      await h.db
        .insertInto('beneficiaries')
        .values({
          id: beneficiaryId,
          merchant_id: merchantId,
          iban: shebaFor(Date.now()),
          name: 'Agency',
          status: 'approved',
          reason: null,
          created_at: new Date(),
          reviewed_at: new Date(),
        })
        .execute();
      await h.db
        .insertInto('payment_splits')
        .values([
          {
            id: randomUUID(),
            payment_id: split.id,
            beneficiary_id: beneficiaryId,
            position: 0,
            amount: 100_000,
            description: '',
            refunded: 0,
            settled_in: null,
          },
        ])
        .execute();
    });

    it('names who paid the fee, what the customer was charged, the shares and what the merchant received at verify', async () => {
      const res = await api.get(reportPath(FROM, TO));
      assert.equal(res.status, 200, res.text);
      const [header, ...lines] = parseCsv(res.text);
      const column = (line: string[], name: (typeof PAYMENTS_REPORT_COLUMNS)[number]) => line[header!.indexOf(name)];
      const byReference = (reference: string) => lines.find((l) => column(l, 'merchant_reference') === reference)!;
      const row = (reference: string) =>
        (['amount', 'fee', 'fee_payer', 'charged_amount', 'splits_amount', 'merchant_receives'] as const).map((c) =>
          column(byReference(reference), c),
        );
      assert.deepEqual(row('customer-pays'), ['200000', '2000', 'customer', '202000', '0', '200000']);
      assert.deepEqual(row('split'), ['500000', '5000', 'merchant', '500000', '100000', '395000']);
      // Not verified: nothing received yet, the column empty.
      assert.deepEqual(row('plain-order'), ['100007', '0', 'merchant', '100007', '0', '']);
      assert.deepEqual(
        header!.slice(-4),
        ['fee_payer', 'charged_amount', 'splits_amount', 'merchant_receives'],
        'added at the end',
      );
    });

    it('streams a header line and one line per payment in range, oldest first, quoted and defused', async () => {
      const h = await getHarness();
      const res = await api.get(reportPath(FROM, TO));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(
        res.headers.get('content-disposition'),
        'attachment; filename="payments-20240601T000000Z-20240602T000000Z.csv"',
      );
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('transfer-encoding'), 'chunked', 'streamed, not sent with a precomputed length');
      assert.ok(res.text.endsWith('\r\n'));

      const records = parseCsv(res.text);
      assert.deepEqual(records[0], [...PAYMENTS_REPORT_COLUMNS]);
      assert.equal(res.text.split('\r\n')[0], PAYMENTS_REPORT_COLUMNS.join(','));
      const lines = records.slice(1);
      assert.equal(lines.length, inRange.length);
      assert.ok(lines.every((l) => l.length === PAYMENTS_REPORT_COLUMNS.length));

      // Each line is the payment as GET /payments/{id} shows it, in (created_at, id) order.
      const payments = await Promise.all(
        inRange.map(async (r) => (await api.get<{ payment: Payment }>(`/payments/${r.id}`)).body.payment),
      );
      payments.sort((a, b) => -newestFirst(a, b));
      assert.deepEqual(
        lines.map((l) => l[0]),
        payments.map((p) => p.id),
      );
      assert.deepEqual(lines, payments.map(expectedFields));
      assert.ok(!res.text.includes('outside-'), 'nothing outside the range, the mode or the merchant');

      // Hostile references: formula starts defused with an apostrophe, quotes doubled, commas and line breaks quoted.
      const reference = (r: string) => lines.find((l) => l[0] === inRange[HOSTILE.indexOf(r)]!.id)![8];
      assert.equal(
        reference('=HYPERLINK("http://evil.example","click")'),
        `'=HYPERLINK("http://evil.example","click")`,
      );
      assert.ok(res.text.includes(`,"'=HYPERLINK(""http://evil.example"",""click"")",`));
      assert.equal(reference('a,b "quoted", c'), 'a,b "quoted", c');
      assert.ok(res.text.includes(',"a,b ""quoted"", c",'));
      assert.equal(reference('+98-21-1234'), "'+98-21-1234");
      assert.equal(reference('-2+3'), "'-2+3");
      assert.equal(reference('@SUM(A1:A2)'), "'@SUM(A1:A2)");
      assert.equal(reference('\tindented'), "'\tindented");
      assert.equal(reference('two\r\nlines'), 'two\r\nlines');
      assert.ok(res.text.includes(',"two\r\nlines",'));
      assert.equal(reference('plain-order'), 'plain-order');
      assert.ok(
        lines.every((l) => l[16] === '{}'),
        'metadata is a JSON object',
      );
      assert.ok(res.text.includes(',{},merchant,'), 'metadata {} needs no quotes');
      assert.equal(
        Number(
          (
            await h.db
              .selectFrom('payments')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('merchant_id', '=', merchantId)
              .executeTakeFirstOrThrow()
          ).n,
        ),
        inRange.length + 3,
      );
    });

    it('escapes every field by RFC 4180 and defuses formula starts, metadata included', () => {
      assert.equal(csvField(null), '');
      assert.equal(csvField(1_500_000), '1500000');
      assert.equal(csvField('order-1'), 'order-1');
      assert.equal(csvField('a"b'), '"a""b"');
      assert.equal(csvField('a\nb'), '"a\nb"');
      assert.equal(csvField('a\rb'), '"a\rb"');
      assert.equal(csvField('=1+1'), "'=1+1");
      assert.equal(csvField('\r=1'), `"'\r=1"`);
      assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
      assert.equal(
        csvField(JSON.stringify({ note: '=cmd|calc', 'k,1': 'v"2' })),
        '"{""note"":""=cmd|calc"",""k,1"":""v\\""2""}"',
      );
      assert.equal(csvField('-'), "'-");
    });

    it('answers an empty range with the header line alone', async () => {
      const res = await api.get(reportPath('2020-01-01T00:00:00Z', '2020-02-01T00:00:00Z'));
      assert.equal(res.status, 200);
      assert.equal(res.text, `${PAYMENTS_REPORT_COLUMNS.join(',')}\r\n`);
      assert.equal(
        res.headers.get('content-disposition'),
        'attachment; filename="payments-20200101T000000Z-20200201T000000Z.csv"',
      );
    });

    it('answers 422 validation_failed as JSON for a missing, invalid, reversed or too long range, and writes nothing', async () => {
      const h = await getHarness();
      const before = await writtenBy(h.db, merchantId);
      const cases: [string, string][] = [
        ['', 'created_gte'],
        [`created_gte=${FROM}`, 'created_lt'],
        [`created_lt=${TO}`, 'created_gte'],
        ['created_gte=2024-06-01&created_lt=2024-06-02', 'created_gte'],
        [`created_gte=${TO}&created_lt=${FROM}`, 'created_lt'],
        [`created_gte=${FROM}&created_lt=${FROM}`, 'created_lt'],
        ['created_gte=2024-01-01T00:00:00Z&created_lt=2025-01-01T00:00:00.001Z', 'created_lt'],
        [`created_gte=${FROM}&created_lt=${TO}&status=paid`, 'status'],
        [`created_gte=${FROM}&created_lt=${TO}&limit=10`, 'limit'],
      ];
      for (const [query, path] of cases) {
        const res = await api.get<ErrorBody>(`/reports/payments.csv?${query}`);
        assert.equal(res.status, 422, `${query}: ${res.text}`);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal(res.body.code, 'validation_failed');
        assert.ok(
          res.body.details?.some((d) => d.path === path),
          `${query}: ${res.text}`,
        );
      }
      // 366 days exactly is allowed (a leap year).
      const year = await api.get(reportPath('2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z'));
      assert.equal(year.status, 200);
      const unauthenticated = await request(h.baseUrl, 'GET', `/api/v1${reportPath(FROM, TO)}`);
      assert.equal(unauthenticated.status, 401);
      assert.equal(await writtenBy(h.db, merchantId), before);
    });

    it('answers 503 service_unavailable as JSON when MySQL fails before the first byte', async () => {
      const h = await getHarness();
      const baseUrl = await startApi(
        { db: failingPaymentsDb(h.db, 0), logger: h.logger, temporalClient: h.temporal.client },
        testConfig(),
      );
      const res = await request<ErrorBody>(baseUrl, 'GET', `/api/v1${reportPath(FROM, TO)}`, { key });
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.code, 'service_unavailable');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(res.headers.get('retry-after'), '2');
      assert.equal(res.headers.get('content-disposition'), null);
    });
  });
});
