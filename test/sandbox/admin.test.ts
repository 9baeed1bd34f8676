import { describe, expect, it } from 'vitest';
import {
  resetResponseSchema,
  serviceErrorSchema,
  settleResponseSchema,
  statisticsSchema,
} from '../../src/schemas/index.js';
import { call, createInvoice, singleInvoice, useSandbox } from './support.js';

describe('the admin API', () => {
  const sandbox = useSandbox();

  it('answers 405 with Allow for a wrong method and 404 for an unknown route', async () => {
    const pay = await call(sandbox(), 'GET', '/__sandbox/invoices/1000001/pay');
    expect(pay.status).toBe(405);
    expect(pay.headers.get('allow')).toBe('POST');
    expect(serviceErrorSchema.parse(pay.body).code).toBe('METHOD_NOT_ALLOWED');
    const clock = await call(sandbox(), 'PUT', '/__sandbox/clock', { body: { advance: '1d' } });
    expect(clock.status).toBe(405);
    expect(clock.headers.get('allow')).toBe('GET, POST');
    const unknown = await call(sandbox(), 'GET', '/__sandbox/nothing');
    expect(unknown.status).toBe(404);
    expect(serviceErrorSchema.parse(unknown.body).code).toBe('NOT_FOUND');
  });

  it('pays and cancels only UNPAID invoices, and 404s unknown ones', async () => {
    const number = await createInvoice(sandbox(), 'single', singleInvoice());
    const paid = settleResponseSchema.parse((await call(sandbox(), 'POST', `/__sandbox/invoices/${number}/pay`)).body);
    expect(paid).toMatchObject({ invoiceNumber: number, status: 'PAID' });
    for (const action of ['pay', 'cancel']) {
      const again = await call(sandbox(), 'POST', `/__sandbox/invoices/${number}/${action}`);
      expect(again.status).toBe(409);
      expect(serviceErrorSchema.parse(again.body)).toMatchObject({
        code: 'INVALID_STATE',
        message: expect.stringMatching(/is PAID/),
      });
    }
    const missing = await call(sandbox(), 'POST', '/__sandbox/invoices/999/cancel');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });

  it('resets to an empty state by default, or to the demo invoices', async () => {
    await createInvoice(sandbox(), 'single', singleInvoice());
    await call(sandbox(), 'POST', '/__sandbox/clock', { body: { advance: '5d' } });
    const empty = await call(sandbox(), 'POST', '/__sandbox/reset');
    expect(resetResponseSchema.parse(empty.body)).toEqual({ invoices: 0 });
    expect((await call(sandbox(), 'GET', '/__sandbox/invoices')).body.invoices).toEqual([]);
    const clock = (await call(sandbox(), 'GET', '/__sandbox/clock')).body;
    expect(Math.abs(Date.parse(clock.now) - Date.now())).toBeLessThan(60_000);
    expect(await createInvoice(sandbox(), 'single', singleInvoice())).toBe('1000001');

    const demo = await call(sandbox(), 'POST', '/__sandbox/reset', { body: { demo: true } });
    expect(demo.body).toEqual({ invoices: 8 });
    const stats = statisticsSchema.parse((await call(sandbox(), 'GET', '/invoice-api/invoices/statistics')).body);
    expect(stats.allInvoices.totalCount).toBe(8);
  });

  it('moves the clock by calendar months with m, as a date flag reads +1m, and by minutes with min', async () => {
    await call(sandbox(), 'POST', '/__sandbox/clock', { body: { now: '2030-01-31T12:00:00.000Z' } });
    const month = await call(sandbox(), 'POST', '/__sandbox/clock', { body: { advance: '1m' } });
    // The sandbox's clock runs on while the test runs: a few seconds at most.
    const afterMonth = Date.parse(month.body.now) - Date.parse('2030-02-28T12:00:00.000Z');
    expect(afterMonth).toBeGreaterThanOrEqual(0);
    expect(afterMonth).toBeLessThan(5_000);
    const minutes = await call(sandbox(), 'POST', '/__sandbox/clock', { body: { advance: '90min' } });
    const afterMinutes = Date.parse(minutes.body.now) - Date.parse('2030-02-28T13:30:00.000Z');
    expect(afterMinutes).toBeGreaterThanOrEqual(0);
    expect(afterMinutes).toBeLessThan(5_000);
    const unknownUnit = await call(sandbox(), 'POST', '/__sandbox/clock', { body: { advance: '3y' } });
    expect(unknownUnit.status).toBe(400);
  });

  it('answers 400 naming the field of a bad admin body', async () => {
    const clock = await call(sandbox(), 'POST', '/__sandbox/clock', { body: { advance: 'soon' } });
    expect(clock.status).toBe(400);
    expect(serviceErrorSchema.parse(clock.body).code).toBe('VALIDATION_FAILED');
    const tooFar = await call(sandbox(), 'POST', '/__sandbox/clock', { body: { advance: '99999999999w' } });
    expect(tooFar.body.errors).toEqual([{ field: 'advance', message: expect.stringMatching(/last date/) }]);
    expect((await call(sandbox(), 'GET', '/__sandbox/clock')).status).toBe(200);
    for (const ttlSeconds of [-1, 1e20]) {
      const tokens = await call(sandbox(), 'POST', '/__sandbox/tokens', { body: { ttlSeconds } });
      expect(tokens.body.errors).toEqual([{ field: 'ttlSeconds', message: expect.any(String) }]);
    }
    const reset = await call(sandbox(), 'POST', '/__sandbox/reset', { body: { demo: 'yes' } });
    expect(reset.body.errors?.[0]?.field).toBe('demo');
  });
});

describe('the list of invoices', () => {
  const sandbox = useSandbox();
  const numbersOf = (body: { invoices: { invoiceNumber: string }[] }) =>
    body.invoices.map((invoice) => invoice.invoiceNumber);

  it('holds every invoice in the order created, unless a page is asked for with limit and after', async () => {
    for (let i = 0; i < 5; i += 1)
      await createInvoice(sandbox(), 'single', singleInvoice({ businessReference: `P${i}` }));
    const all = (await call(sandbox(), 'GET', '/__sandbox/invoices')).body;
    expect(Object.keys(all)).toEqual(['invoices']);
    expect(numbersOf(all)).toEqual(['1000001', '1000002', '1000003', '1000004', '1000005']);

    const first = (await call(sandbox(), 'GET', '/__sandbox/invoices?limit=2')).body;
    expect(first).toMatchObject({ next: '1000002' });
    expect(numbersOf(first)).toEqual(['1000001', '1000002']);
    const second = (await call(sandbox(), 'GET', `/__sandbox/invoices?limit=2&after=${first.next}`)).body;
    expect(numbersOf(second)).toEqual(['1000003', '1000004']);
    const last = (await call(sandbox(), 'GET', `/__sandbox/invoices?limit=2&after=${second.next}`)).body;
    expect(numbersOf(last)).toEqual(['1000005']);
    expect(last.next).toBeUndefined();
    expect(numbersOf((await call(sandbox(), 'GET', '/__sandbox/invoices?after=1000003')).body)).toEqual([
      '1000004',
      '1000005',
    ]);
  });

  it('refuses a page it cannot give, naming the field', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=x', 'limit'],
      ['after=abc', 'after'],
      ['page=2', 'page'],
    ] as const) {
      const answer = await call(sandbox(), 'GET', `/__sandbox/invoices?${query}`);
      expect(answer.status, query).toBe(400);
      expect(
        answer.body.errors.map((issue: { field: string }) => issue.field),
        query,
      ).toEqual([field]);
    }
    const unknown = await call(sandbox(), 'GET', '/__sandbox/invoices?after=9999999');
    expect(unknown.status).toBe(404);
  });
});
