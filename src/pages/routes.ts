/**
 * Hosted pages for the customer: the payment page with the test bank, and
 * the result page that leads back to the merchant.
 */
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Db } from '../db/database.ts';
import { paymentFromRow } from '../db/payments.ts';
import { BANK_OUTCOMES, returnUrl, type BankOutcome } from '../domain/payment.ts';
import { submitBankOutcome } from '../payments/service.ts';
import type { Payment } from '../api/schemas.ts';
import getRawBody from 'raw-body';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

export function pageRoutes(db: Db, temporal: Client): Router {
  const router = new Router();
  const load = async (id: string): Promise<Payment | undefined> => {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const row = await db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : paymentFromRow(row);
  };

  router.get('/pay/:id', async (ctx) => {
    const payment = await load(ctx.params.id!);
    ctx.type = 'html';
    if (payment === undefined) {
      ctx.status = 404;
      ctx.body = page('Payment not found', '<h1>Payment not found</h1>');
      return;
    }
    const form =
      payment.status === 'created'
        ? `<form method="post" action="/pay/${payment.id}">${BANK_OUTCOMES.map((o) => `<button name="outcome" value="${o}">${o}</button>`).join('')}</form>`
        : `<p>This payment is ${escapeHtml(payment.status)}.</p>`;
    ctx.body = page('Payment', `<h1>${payment.amount} IRR</h1><p>${escapeHtml(payment.description)}</p><p>${payment.tracking_code}</p>${form}`);
  });

  router.post('/pay/:id', async (ctx) => {
    const payment = await load(ctx.params.id!);
    if (payment === undefined) {
      ctx.status = 404;
      ctx.type = 'html';
      ctx.body = page('Payment not found', '<h1>Payment not found</h1>');
      return;
    }
    const form = new URLSearchParams(await getRawBody(ctx.req, { limit: 4096, encoding: 'utf8' }));
    const outcome = form.get('outcome');
    if (payment.status === 'created' && BANK_OUTCOMES.includes(outcome as BankOutcome)) {
      await submitBankOutcome(temporal, payment.id, outcome as BankOutcome);
    }
    ctx.status = 303;
    ctx.redirect(`/pay/${payment.id}/result`);
  });

  router.get('/pay/:id/result', async (ctx) => {
    const payment = await load(ctx.params.id!);
    ctx.type = 'html';
    if (payment === undefined) {
      ctx.status = 404;
      ctx.body = page('Payment not found', '<h1>Payment not found</h1>');
      return;
    }
    const back = returnUrl(payment.callback_url, payment);
    ctx.body = page('Result', `<h1>${escapeHtml(payment.status)}</h1><p>${payment.tracking_code}</p><a href="${escapeHtml(back)}">Back to the shop</a>`);
  });

  return router;
}
