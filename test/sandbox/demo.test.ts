import { describe, expect, it } from 'vitest';
import { sandboxInvoicesResponseSchema, statisticsGroups, statisticsSchema } from '../../src/schemas/index.js';
import { demoState } from '../../src/sandbox/demo.js';
import { call, useSandbox } from './support.js';

describe('the demo invoices', () => {
  const sandbox = useSandbox({ demo: true });

  it('give every status a non-zero count and amount', async () => {
    const stats = statisticsSchema.parse((await call(sandbox(), 'GET', '/invoice-api/invoices/statistics')).body);
    for (const group of statisticsGroups) {
      expect(stats[group].totalCount, group).toBeGreaterThan(0);
      expect(stats[group].totalAmount, group).toBeGreaterThan(0);
    }
    expect(stats.allInvoices).toEqual({ totalCount: 8, totalAmount: 4995.74 });
  });

  it('have fixed numbers, and the PAID ones known order reference numbers that refund', async () => {
    const { invoices } = sandboxInvoicesResponseSchema.parse(
      (await call(sandbox(), 'GET', '/__sandbox/invoices')).body,
    );
    expect(invoices.map((invoice) => invoice.invoiceNumber)).toEqual(
      Array.from({ length: 8 }, (_, i) => String(1000001 + i)),
    );
    const paid = invoices.filter((invoice) => invoice.status === 'PAID');
    expect(paid.map((invoice) => [invoice.invoiceNumber, invoice.orderReferenceNumber])).toEqual([
      ['1000002', '3712340'],
      ['1000007', '3712345'],
    ]);
    const refund = { amount: 150, reason: 'Damaged item', orderReferenceNumber: '3712345' };
    expect((await call(sandbox(), 'POST', '/invoice-api/invoices/1000007/refund', { body: refund })).status).toBe(200);
    expect(await call(sandbox(), 'POST', '/__sandbox/invoices/1000009/pay')).toMatchObject({ status: 404 });
  });

  it('stay as they are: nothing is due to expire or be issued when they are seeded', async () => {
    await call(sandbox(), 'GET', '/invoice-api/invoices/statistics');
    expect((await call(sandbox(), 'GET', '/__sandbox/outbox')).body.messages).toEqual([]);
  });

  it('are the same set every time, apart from their dates', () => {
    const strip = (state: ReturnType<typeof demoState>) =>
      state.invoices.map(({ invoiceNumber, status, amount, orderReferenceNumber, kind }) => ({
        invoiceNumber,
        status,
        amount,
        orderReferenceNumber,
        kind,
      }));
    expect(strip(demoState('1000001', new Date('2030-01-01T00:00:00Z')))).toEqual(
      strip(demoState('1000001', new Date())),
    );
  });
});
