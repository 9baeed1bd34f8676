import { describe, expect, it } from 'vitest';
import { sandboxInvoicesResponseSchema, serviceErrorSchema, statisticsSchema } from '../../src/schemas/index.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { call, createInvoice, recurringInvoice, singleInvoice, useSandbox } from './support.js';

const statisticsPaths = ['/invoice-api/invoices/statistics', '/invoice-api/invoice-statistics'];

/** Both statistics paths, checked to answer the same valid body. */
async function statistics(sandbox: RunningSandbox) {
  const [first, second] = await Promise.all(statisticsPaths.map((path) => call(sandbox, 'GET', path)));
  expect(first?.status).toBe(200);
  expect(second?.body).toEqual(first?.body);
  return statisticsSchema.parse(first?.body);
}

describe('the invoice lifecycle', () => {
  const sandbox = useSandbox();

  it('creates, pays and refunds invoices, and the statistics follow each step', async () => {
    const empty = await statistics(sandbox());
    expect(empty.allInvoices).toEqual({ totalCount: 0, totalAmount: 0 });

    const created = await call(sandbox(), 'POST', '/invoice-api/invoices/single', { body: singleInvoice() });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    expect(created.text).toBe('1000001');
    const recurring = await createInvoice(sandbox(), 'recurring', recurringInvoice({ amount: 99.99 }));
    expect(recurring).toBe('1000002');

    let stats = await statistics(sandbox());
    expect(stats.allInvoices).toEqual({ totalCount: 2, totalAmount: 1349.99 });
    expect(stats.unpaidInvoices).toEqual({ totalCount: 2, totalAmount: 1349.99 });
    expect(stats.paidInvoices).toEqual({ totalCount: 0, totalAmount: 0 });

    const paid = await call(sandbox(), 'POST', '/__sandbox/invoices/1000001/pay');
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({ invoiceNumber: '1000001', status: 'PAID', orderReferenceNumber: expect.any(String) });
    stats = await statistics(sandbox());
    expect(stats.paidInvoices).toEqual({ totalCount: 1, totalAmount: 1250 });
    expect(stats.unpaidInvoices).toEqual({ totalCount: 1, totalAmount: 99.99 });

    const refund = { amount: '200.50', reason: 'Damaged item', orderReferenceNumber: paid.body.orderReferenceNumber };
    const refunded = await call(sandbox(), 'POST', '/invoice-api/invoices/1000001/refund', { body: refund });
    expect(refunded.status).toBe(200);
    expect(refunded.body).toEqual({});
    stats = await statistics(sandbox());
    expect(stats.refundedInvoices).toEqual({ totalCount: 1, totalAmount: 1250 });
    expect(stats.paidInvoices).toEqual({ totalCount: 0, totalAmount: 0 });
    expect(stats.allInvoices).toEqual({ totalCount: 2, totalAmount: 1349.99 });

    const canceled = await call(sandbox(), 'POST', '/__sandbox/invoices/1000002/cancel');
    expect(canceled.body).toEqual({ invoiceNumber: '1000002', status: 'CANCELED' });
    stats = await statistics(sandbox());
    expect(stats.canceledInvoices).toEqual({ totalCount: 1, totalAmount: 99.99 });
    expect(stats.unpaidInvoices).toEqual({ totalCount: 0, totalAmount: 0 });

    const { invoices } = sandboxInvoicesResponseSchema.parse(
      (await call(sandbox(), 'GET', '/__sandbox/invoices')).body,
    );
    expect(invoices.find((invoice) => invoice.invoiceNumber === '1000001')?.refunds).toEqual([
      {
        amount: 200.5,
        reason: 'Damaged item',
        orderReferenceNumber: paid.body.orderReferenceNumber,
        at: expect.any(String),
      },
    ]);
    expect(invoices.find((invoice) => invoice.invoiceNumber === '1000002')).toMatchObject({
      kind: 'recurring',
      cycle: { cycleType: 'MONTH', cycleValue: 1 },
    });
  });

  it('sums amounts in minor units, so 0.10 + 0.20 is 0.30', async () => {
    await createInvoice(sandbox(), 'single', singleInvoice({ amount: 0.1 }));
    await createInvoice(sandbox(), 'single', singleInvoice({ amount: 0.2 }));
    expect((await statistics(sandbox())).allInvoices.totalAmount).toBe(0.3);
  });

  it('keeps the request exactly as it was received', async () => {
    const body = singleInvoice({ alertMerchantUponExpiry: 'false', taxes: 14, businessReference: '  REF-1 ' });
    const number = await createInvoice(sandbox(), 'single', body);
    const { invoices } = (await call(sandbox(), 'GET', '/__sandbox/invoices')).body;
    const stored = invoices.find((invoice: { invoiceNumber: string }) => invoice.invoiceNumber === number);
    expect(stored.request).toEqual(body);
    expect(stored.businessReference).toBe('REF-1');
  });
});

describe('refunds', () => {
  const sandbox = useSandbox();

  async function paidInvoice(): Promise<{ number: string; orderReferenceNumber: string }> {
    const number = await createInvoice(sandbox(), 'single', singleInvoice({ amount: 500 }));
    const paid = await call(sandbox(), 'POST', `/__sandbox/invoices/${number}/pay`);
    return { number, orderReferenceNumber: paid.body.orderReferenceNumber };
  }

  const refundOf = (number: string, body: unknown) =>
    call(sandbox(), 'POST', `/invoice-api/invoices/${number}/refund`, { body });

  it('refuses an invoice that is not PAID, saying so', async () => {
    const number = await createInvoice(sandbox(), 'single', singleInvoice());
    const response = await refundOf(number, { amount: 1, reason: 'x', orderReferenceNumber: '1' });
    expect(response.status).toBe(400);
    expect(serviceErrorSchema.parse(response.body)).toMatchObject({
      status: 400,
      code: 'INVALID_STATE',
      message: `Invoice ${number} is UNPAID; only a PAID invoice can be refunded.`,
    });
  });

  it('refuses another order reference number, or more than the invoice amount', async () => {
    const { number, orderReferenceNumber } = await paidInvoice();
    const wrongReference = await refundOf(number, { amount: 10, reason: 'x', orderReferenceNumber: '999' });
    expect(wrongReference.status).toBe(400);
    expect(wrongReference.body.code).toBe('REFUND_REJECTED');
    expect(wrongReference.body.message).toMatch(/orderReferenceNumber/);
    const tooMuch = await refundOf(number, { amount: 500.01, reason: 'x', orderReferenceNumber });
    expect(tooMuch.body).toMatchObject({ status: 400, code: 'REFUND_REJECTED' });
    expect(tooMuch.body.message).toBe(
      `The refund amount 500.01 is more than the amount of invoice ${number} (500.00).`,
    );
    const full = await refundOf(number, { amount: 500, reason: 'x', orderReferenceNumber });
    expect(full.status).toBe(200);
    const again = await refundOf(number, { amount: 1, reason: 'x', orderReferenceNumber });
    expect(again.body).toMatchObject({ code: 'INVALID_STATE', message: expect.stringMatching(/is REFUNDED/) });
  });

  it('answers 404 for an unknown invoice and 400 naming each bad field', async () => {
    const unknown = await refundOf('4242', { amount: 1, reason: 'x', orderReferenceNumber: '1' });
    expect(unknown.status).toBe(404);
    expect(serviceErrorSchema.parse(unknown.body).code).toBe('NOT_FOUND');
    const { number } = await paidInvoice();
    const invalid = await refundOf(number, { amount: -5, orderReferenceNumber: '' });
    expect(invalid.status).toBe(400);
    const body = serviceErrorSchema.parse(invalid.body);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.errors?.map((error) => error.field).sort()).toEqual(['amount', 'orderReferenceNumber', 'reason']);
  });
});

describe('invoice numbers', () => {
  it('count on past 2^53 without rounding', async () => {
    const sandbox = await startSandbox({ firstInvoiceNumber: '9007199254740993' });
    try {
      expect(await createInvoice(sandbox, 'single', singleInvoice())).toBe('9007199254740993');
      expect(await createInvoice(sandbox, 'single', singleInvoice())).toBe('9007199254740994');
      const paid = await call(sandbox, 'POST', '/__sandbox/invoices/9007199254740994/pay');
      expect(paid.body.invoiceNumber).toBe('9007199254740994');
    } finally {
      await sandbox.close();
    }
  });

  it('refuses a first number that is not decimal digits', async () => {
    await expect(startSandbox({ firstInvoiceNumber: '12a' })).rejects.toThrow(/firstInvoiceNumber/);
  });
});
