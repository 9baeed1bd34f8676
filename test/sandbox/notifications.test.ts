import { describe, expect, it } from 'vitest';
import { clockResponseSchema, outboxResponseSchema } from '../../src/schemas/index.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { call, createInvoice, isoIn, singleInvoice, useSandbox } from './support.js';

async function outbox(sandbox: RunningSandbox) {
  return outboxResponseSchema.parse((await call(sandbox, 'GET', '/__sandbox/outbox')).body).messages;
}

const customer = { name: 'Hoda', email: 'hoda@example.com', mobile: '+201099999999' };

describe('customer notifications', () => {
  const sandbox = useSandbox();

  it.each([
    ['SMS', [['SMS', customer.mobile]]],
    ['EMAIL', [['EMAIL', customer.email]]],
    [
      'BOTH',
      [
        ['SMS', customer.mobile],
        ['EMAIL', customer.email],
      ],
    ],
    ['NONE', []],
    [undefined, [['SMS', customer.mobile]]],
  ])('communicationMethod %s sends %j', async (method, expected) => {
    const number = await createInvoice(sandbox(), 'single', singleInvoice({ customer, communicationMethod: method }));
    const messages = await outbox(sandbox());
    expect(messages.map((message) => [message.channel, message.address])).toEqual(expected);
    for (const message of messages) {
      expect(message).toMatchObject({ to: 'customer', lang: 'en-gb', invoiceNumber: number });
      expect(message.text).toContain(number);
      expect(message.text).toContain('1,250.00');
      expect(message.text).toContain('Hello Hoda');
    }
  });

  it('writes in Arabic for ar-eg', async () => {
    await createInvoice(
      sandbox(),
      'single',
      singleInvoice({ customer, communicationLang: 'ar-eg', communicationMethod: 'BOTH' }),
    );
    const messages = await outbox(sandbox());
    expect(messages).toHaveLength(2);
    for (const message of messages) {
      expect(message.lang).toBe('ar-eg');
      expect(message.text).toMatch(/[\u0600-\u06FF]/);
      expect(message.text).toContain('مرحباً');
    }
  });

  it('sends an e-mail with a subject, listing the items named in the invoice language', async () => {
    const items = [
      { itemCode: 'CH-01', purchasedQuantity: 2, price: 250, nameEn: 'Office chair', nameAr: 'كرسي مكتب' },
      { itemCode: 'DK-02', purchasedQuantity: 1, price: 750, nameEn: 'Desk', nameAr: 'مكتب' },
    ];
    await createInvoice(sandbox(), 'single', singleInvoice({ customer, communicationMethod: 'EMAIL', items }));
    await createInvoice(
      sandbox(),
      'single',
      singleInvoice({ customer, communicationMethod: 'EMAIL', communicationLang: 'ar-eg', items }),
    );
    const [english, arabic] = await outbox(sandbox());
    expect(english?.subject).toMatch(/^Invoice \d+ for 1,250\.00$/);
    expect(english?.text).toContain('• Office chair × 2 at 250.00\n• Desk × 1 at 750.00\n');
    expect(arabic?.subject).toMatch(/^فاتورة رقم \d+ بمبلغ 1,250\.00$/);
    expect(arabic?.text).toContain('• كرسي مكتب × 2 بسعر 250.00\n• مكتب × 1 بسعر 750.00\n');
    expect(arabic?.text).not.toContain('Office chair');
  });

  it('sends the order reference number instead of a link for PUSH_TO_SERVICE_PAY', async () => {
    await createInvoice(sandbox(), 'single', singleInvoice({ paymentType: 'PUSH_TO_SERVICE_PAY' }));
    const { invoices } = (await call(sandbox(), 'GET', '/__sandbox/invoices')).body;
    const [sms] = await outbox(sandbox());
    expect(sms?.text).toContain(`order reference number ${invoices[0].orderReferenceNumber}`);
    expect(sms?.text).not.toContain('https://');

    await createInvoice(sandbox(), 'single', singleInvoice({ paymentType: 'PUSH_TO_CUSTOMER' }));
    expect((await outbox(sandbox()))[1]?.text).toContain('https://');
  });

  it('notifies when the clock passes a future release date, not before', async () => {
    const number = await createInvoice(
      sandbox(),
      'single',
      singleInvoice({ releaseDate: isoIn(2), expiryDate: isoIn(10) }),
    );
    expect(await outbox(sandbox())).toEqual([]);
    await call(sandbox(), 'POST', '/__sandbox/clock', { body: { advance: '3d' } });
    const messages = await outbox(sandbox());
    expect(messages).toHaveLength(1);
    expect(messages[0]?.invoiceNumber).toBe(number);
  });
});

describe('expiry', () => {
  const sandbox = useSandbox();

  it('expires unpaid invoices when the clock passes their expiry date, alerting the merchant when asked', async () => {
    const alerting = await createInvoice(
      sandbox(),
      'single',
      singleInvoice({ expiryDate: isoIn(5), alertMerchantUponExpiry: 'true', communicationMethod: 'NONE' }),
    );
    const silent = await createInvoice(
      sandbox(),
      'single',
      singleInvoice({ expiryDate: isoIn(5), communicationMethod: 'NONE' }),
    );
    const paid = await createInvoice(
      sandbox(),
      'single',
      singleInvoice({ expiryDate: isoIn(5), alertMerchantUponExpiry: true }),
    );
    const later = await createInvoice(sandbox(), 'single', singleInvoice({ expiryDate: isoIn(60) }));
    await call(sandbox(), 'POST', `/__sandbox/invoices/${paid}/pay`);

    const moved = await call(sandbox(), 'POST', '/__sandbox/clock', { body: { advance: '30d' } });
    expect(moved.status).toBe(200);
    const clock = clockResponseSchema.parse(moved.body);
    expect(clock.expired).toEqual([alerting, silent]);
    expect(Date.parse(clock.now) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    const merchantMail = (await outbox(sandbox())).filter((message) => message.to === 'merchant');
    expect(merchantMail).toEqual([
      expect.objectContaining({ channel: 'EMAIL', invoiceNumber: alerting, text: expect.stringMatching(/expired/) }),
    ]);
    const stats = (await call(sandbox(), 'GET', '/invoice-api/invoices/statistics')).body;
    expect(stats.expiredInvoices).toEqual({ totalCount: 2, totalAmount: 2500 });
    expect(stats.unpaidInvoices.totalCount).toBe(1);
    const stillPayable = await call(sandbox(), 'POST', `/__sandbox/invoices/${later}/pay`);
    expect(stillPayable.body.status).toBe('PAID');
  });

  it('sets the clock to an instant and reads it back', async () => {
    const moved = await call(sandbox(), 'POST', '/__sandbox/clock', { body: { now: '2040-01-01T00:00:00.000Z' } });
    expect(moved.body).toEqual({ now: expect.stringMatching(/^2040-01-01T00:00:0/), expired: [] });
    const read = await call(sandbox(), 'GET', '/__sandbox/clock');
    expect(read.body.now).toMatch(/^2040-01-01T00:00/);
  });
});
