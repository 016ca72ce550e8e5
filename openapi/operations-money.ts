/**
 * The balance, settlements, beneficiaries and reports operations of the catalogue (operations.ts).
 */
import { Type } from '@sinclair/typebox';
import { PAYMENTS_REPORT_COLUMNS, PaymentsReportQuerySchema, REPORT_MAX_DAYS } from '../src/domain/report-schemas.ts';
import {
  BalanceResponseSchema,
  ListSettlementsQuerySchema,
  SETTLEMENT_CSV_COLUMNS,
  SettlementListSchema,
  SettlementWithLinesSchema,
} from '../src/domain/settlement-schemas.ts';
import {
  BeneficiaryListSchema,
  BeneficiaryResponseSchema,
  CreateBeneficiaryRequestSchema,
} from '../src/domain/split-schemas.ts';
import { BODY_ERRORS, COMMON_ERRORS, type Operation } from './operation.ts';

export function moneyOperations(): Operation[] {
  return [
    {
      method: 'get',
      path: '/api/v1/balance',
      operationId: 'getBalance',
      summary: 'Retrieve the balance',
      description:
        "The merchant's balance in this key's mode, from the ledger: what the next settlement would pay out now (`available`), the rest of the balance (`pending`), what customers paid and you have not verified (`held`) and settlements on their way to your IBAN (`in_payout`). Test mode is never settled: its `available` is always 0.",
      tag: 'Settlements',
      auth: true,
      responses: { 200: { description: 'The balance.', schema: BalanceResponseSchema } },
      errors: [...COMMON_ERRORS],
    },
    {
      method: 'get',
      path: '/api/v1/settlements',
      operationId: 'listSettlements',
      summary: 'List settlements',
      description:
        "The merchant's settlements (live mode only; a test key sees none), newest first, paged like payments. The filters are optional and combine.",
      tag: 'Settlements',
      auth: true,
      query: ListSettlementsQuerySchema,
      responses: { 200: { description: 'A page of settlements.', schema: SettlementListSchema } },
      errors: [...COMMON_ERRORS, 'validation_failed'],
    },
    {
      method: 'get',
      path: '/api/v1/settlements/{id}',
      operationId: 'getSettlement',
      summary: 'Retrieve a settlement with its lines',
      description:
        "The settlement and every line it covers: each payment (amount and fee), each refund (deducted), each refused refund given back, and each beneficiary's share of a split payment (deducted, with the IBAN it is paid to by a transfer of its own).",
      tag: 'Settlements',
      auth: true,
      responses: { 200: { description: 'The settlement and its lines.', schema: SettlementWithLinesSchema } },
      errors: [...COMMON_ERRORS, 'settlement_not_found'],
    },
    {
      method: 'get',
      path: '/api/v1/settlements/{id}/lines.csv',
      operationId: 'getSettlementLines',
      summary: "Download a settlement's lines as CSV",
      description:
        "The lines of the settlement as CSV (UTF-8, CRLF line ends), a header line then one line per payment, refund, refused refund given back or beneficiary's share (its `iban` set; empty on the other lines); streamed.",
      tag: 'Settlements',
      auth: true,
      responses: {
        200: {
          description: 'The CSV file.',
          contentType: 'text/csv',
          schema: Type.String({ description: `CSV with the columns ${SETTLEMENT_CSV_COLUMNS.join(', ')}` }),
          example: `${SETTLEMENT_CSV_COLUMNS.join(',')}\r\npayment,0b6f3c1e-4f2a-4c55-9a7e-2f1d0c9b8a71,0b6f3c1e-4f2a-4c55-9a7e-2f1d0c9b8a71,1500000,15000,1485000,\r\n`,
          headers: {
            'Content-Disposition': {
              description: 'attachment; the file name names the settlement',
              example: 'attachment; filename="settlement-0b6f3c1e-4f2a-4c55-9a7e-2f1d0c9b8a71.csv"',
            },
          },
        },
      },
      errors: [...COMMON_ERRORS, 'settlement_not_found'],
    },
    {
      method: 'post',
      path: '/api/v1/beneficiaries',
      operationId: 'createBeneficiary',
      summary: 'Register a beneficiary',
      description:
        "Registers a Sheba IBAN your payments may split to (split settlement, تسهیم). Live keys only: a share is paid out of live money, so a test key is refused (403 `live_mode_only`, nothing written); test payments split to the beneficiaries a live key registered. It is `pending` until the operator checks and approves it; only an approved beneficiary may be named in a payment's `splits`, and one the operator revoked (`revoked`) is named by no later payment. The same IBAN again answers the beneficiary it already is (200), whatever its status.",
      tag: 'Settlements',
      auth: true,
      body: CreateBeneficiaryRequestSchema,
      responses: {
        201: { description: 'The beneficiary, pending review.', schema: BeneficiaryResponseSchema },
        200: {
          description: 'The IBAN was registered before: that beneficiary, as it stands.',
          schema: BeneficiaryResponseSchema,
        },
      },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'live_mode_only'],
    },
    {
      method: 'get',
      path: '/api/v1/beneficiaries',
      operationId: 'listBeneficiaries',
      summary: 'List beneficiaries',
      description:
        'All your beneficiaries, newest first, with their review status (not paged: a merchant has a handful).',
      tag: 'Settlements',
      auth: true,
      responses: { 200: { description: 'The beneficiaries.', schema: BeneficiaryListSchema } },
      errors: [...COMMON_ERRORS],
    },
    {
      method: 'get',
      path: '/api/v1/reports/payments.csv',
      operationId: 'getPaymentsReport',
      summary: 'Download payments as CSV',
      description:
        `Every payment of this key's mode created in [\`created_gte\`, \`created_lt\`) (at most ${REPORT_MAX_DAYS} days), oldest first, as CSV (RFC 4180, UTF-8, CRLF line ends): ` +
        'a header line naming the columns, then one line per payment. A field that contains a comma, a quote or a line break is quoted, its quotes doubled; ' +
        "a field that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'` so that spreadsheets do not run it as a formula. " +
        '`metadata` is a JSON object. `fee_payer`, `charged_amount` (what the customer was charged), `splits_amount` (the sum of the split shares, 0 without splits) ' +
        'and `merchant_receives` (`charged_amount` − `fee` − `splits_amount`: what verify put on the balance, before refunds; empty until verified) come last. The file is streamed: an error found before the download starts is a JSON error; ' +
        'a failure during the download cuts the response short (no final chunk), so a complete download is one that ended cleanly.',
      tag: 'Reports',
      auth: true,
      query: PaymentsReportQuerySchema,
      responses: {
        200: {
          description: 'The CSV file.',
          contentType: 'text/csv',
          schema: Type.String({ description: `CSV with the columns ${PAYMENTS_REPORT_COLUMNS.join(', ')}` }),
          example:
            `${PAYMENTS_REPORT_COLUMNS.join(',')}\r\n` +
            '0b6f3c1e-4f2a-4c55-9a7e-2f1d0c9b8a71,2026-11-21T10:15:30.123Z,verified,live,1500000,15000,0,IRR,order-1042,482910375561,938475610,403912775810,603799******1234,2026-11-21T10:16:02.481Z,2026-11-21T10:16:05.007Z,pending,{},merchant,1500000,0,1485000\r\n',
          headers: {
            'Content-Disposition': {
              description: 'attachment; the file name names the range',
              example: 'attachment; filename="payments-20261101T000000Z-20261201T000000Z.csv"',
            },
          },
        },
      },
      errors: [...COMMON_ERRORS, 'validation_failed'],
    },
  ];
}
