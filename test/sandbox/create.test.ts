import { describe, expect, it } from 'vitest';
import { serviceErrorSchema } from '../../src/schemas/index.js';
import { call, createInvoice, recurringInvoice, singleInvoice, useSandbox } from './support.js';

describe('creating invoices', () => {
  const sandbox = useSandbox();

  it('answers 400 naming each failing field, and creates nothing', async () => {
    const items = [
      { itemCode: 'A', purchasedQuantity: 1, price: 10, nameEn: 'a', nameAr: 'أ' },
      { itemCode: 'B', purchasedQuantity: 1, price: 10, nameEn: 'b', nameAr: 'ب' },
      { itemCode: 'C', purchasedQuantity: 1, price: -1, nameEn: 'c', nameAr: 'ج' },
    ];
    const response = await call(sandbox(), 'POST', '/invoice-api/invoices/single', {
      body: singleInvoice({ items, communicationMethod: 'EMAIL', customer: { name: 'X', mobile: '+201000000001' } }),
    });
    expect(response.status).toBe(400);
    const body = serviceErrorSchema.parse(response.body);
    expect(body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { field: 'items[2].price', message: expect.any(String) },
        { field: 'customer.email', message: expect.stringMatching(/EMAIL or BOTH/) },
      ]),
    );
    const { invoices } = (await call(sandbox(), 'GET', '/__sandbox/invoices')).body;
    expect(invoices).toEqual([]);
  });

  it('uses the schema of each kind: a recurring invoice needs its cycle and discount', async () => {
    const response = await call(sandbox(), 'POST', '/invoice-api/invoices/recurring', { body: singleInvoice() });
    expect(response.status).toBe(400);
    const fields = serviceErrorSchema.parse(response.body).errors?.map((error) => error.field);
    expect(fields).toEqual(expect.arrayContaining(['cycleType', 'cycleValue', 'discount']));
  });

  it('refuses a duplicate with 409 and the existing invoice number, across both kinds', async () => {
    const original = await createInvoice(sandbox(), 'single', singleInvoice({ businessReference: 'ORDER-7' }));
    const duplicate = await call(sandbox(), 'POST', '/invoice-api/invoices/recurring', {
      body: recurringInvoice({ businessReference: 'ORDER-7', note: 'something else' }),
    });
    expect(duplicate.status).toBe(409);
    expect(serviceErrorSchema.parse(duplicate.body)).toMatchObject({
      status: 409,
      code: 'DUPLICATE_INVOICE',
      invoiceNumber: original,
      message: expect.stringMatching(/duplicate/),
    });
  });

  it('is not a duplicate when the amount, the sending date or the reference differs, or there is none', async () => {
    await createInvoice(sandbox(), 'single', singleInvoice({ businessReference: 'ORDER-8' }));
    const variants = [
      singleInvoice({ businessReference: 'ORDER-8', amount: 1250.01 }),
      singleInvoice({ businessReference: 'ORDER-8', sendingDate: '2030-01-01' }),
      singleInvoice({ businessReference: 'ORDER-9' }),
      singleInvoice(),
      singleInvoice(),
    ];
    for (const body of variants) {
      expect((await call(sandbox(), 'POST', '/invoice-api/invoices/single', { body })).status).toBe(201);
    }
  });

  it('gives a PUSH_TO_SERVICE_PAY invoice its order reference number at creation', async () => {
    const number = await createInvoice(sandbox(), 'single', singleInvoice({ paymentType: 'PUSH_TO_SERVICE_PAY' }));
    const { invoices } = (await call(sandbox(), 'GET', '/__sandbox/invoices')).body;
    const reference = invoices[0].orderReferenceNumber;
    expect(reference).toMatch(/^\d+$/);
    const paid = await call(sandbox(), 'POST', `/__sandbox/invoices/${number}/pay`);
    expect(paid.body.orderReferenceNumber).toBe(reference);
  });
});
