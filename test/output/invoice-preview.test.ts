import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderInvoicePreview } from '../../src/output/invoice-preview.js';
import type { SingleInvoice } from '../../src/schemas/invoice.js';

// The preview a merchant confirms: taxes are part of the total (the amount is what the customer pays), and item
// totals are exact at any size.

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
  it('says the taxes are included in the total, which stays the amount', () => {
    const preview = renderInvoicePreview('single', invoice({ taxes: '14' }), plain);
    expect(preview).toMatch(/^ {2}Taxes +14% \(included in the total\)$/m);
    expect(preview).toMatch(/^ {2}Total +21\.00$/m);
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
