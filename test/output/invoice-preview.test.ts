import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderInvoicePreview } from '../../src/output/invoice-preview.js';
import type { SingleInvoice } from '../../src/schemas/invoice.js';

// The preview a merchant confirms: what is sent and what the spec defines (taxes as a percentage, a recurring
// discount beside the amount), the merchant's currency and clock, and item totals exact at any size.

const plain = new Chalk({ level: 0 });

const invoice = (overrides: Partial<SingleInvoice> = {}): SingleInvoice => ({
  customer: { name: 'Amr', mobile: '+201012345678' },
  amount: 21,
  sendingDate: '2030-01-15',
  expiryDate: '2030-02-15T23:59:59.999Z',
  releaseDate: '2030-01-15T00:00:00.000Z',
  note: 'Order 7',
  items: [{ itemCode: 'A', purchasedQuantity: 2, price: 10.5, nameEn: 'Mug', nameAr: 'كوب' }],
  ...overrides,
});

describe('renderInvoicePreview', () => {
  it('shows taxes as the percentage sent, with no claim about the total the spec does not make', () => {
    const preview = renderInvoicePreview('single', invoice({ taxes: '14' }), plain);
    expect(preview).toMatch(/^ {2}Taxes +14 \(%\)$/m);
    expect(preview).toMatch(/^ {2}Amount +21\.00$/m);
    expect(preview).not.toContain('included');
  });

  it("shows a recurring invoice's discount beside the amount, with no computed total", () => {
    const recurring = {
      ...invoice({ items: undefined }),
      cycleType: 'MONTH',
      cycleValue: 1,
      discount: { value: 10, type: 'PERCENTAGE' },
    } as unknown as SingleInvoice;
    const preview = renderInvoicePreview('recurring', recurring, plain);
    expect(preview).toMatch(/^ {2}Amount +21\.00, discount 10%$/m);
    expect(preview).not.toContain('18.90');
  });

  it('shows the currency beside every amount when the profile names one, and nothing when it does not', () => {
    const preview = renderInvoicePreview('single', invoice(), plain, { currency: 'EGP' });
    expect(preview).toMatch(/^ {2}Amount +21\.00 EGP$/m);
    expect(preview).toContain('10.50 EGP');
    expect(renderInvoicePreview('single', invoice(), plain)).not.toContain('EGP');
  });

  it("names the time zone and shows each instant on the merchant's clock beside the one sent", () => {
    const preview = renderInvoicePreview('single', invoice(), plain, { timeZone: 'Africa/Cairo' });
    expect(preview).toMatch(/^ {2}Expires +2030-02-15T23:59:59\.999Z \(2030-02-16 01:59 Africa\/Cairo\)$/m);
    expect(preview).toMatch(/^ {2}Time zone +Africa\/Cairo$/m);
  });

  it('writes an item total exactly, past what a float product keeps', () => {
    const items = [
      { itemCode: 'B', purchasedQuantity: 999_999_999_999_999, price: 0.01, nameEn: 'Pin', nameAr: 'دبوس' },
    ];
    const preview = renderInvoicePreview('single', invoice({ amount: 9_999_999_999_999.99, items }), plain);
    expect(preview).toContain('9,999,999,999,999.99');
    expect(preview).not.toContain('10,000,000,000,000.00');
  });
});
