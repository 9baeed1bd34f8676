import { describe, expect, it } from 'vitest';
import { mergeInvoiceSources } from '../../src/input/invoice-input.js';
import { canBeAsked } from '../../src/input/invoice-prompts.js';
import { invoiceSchemas, validate, type InvoiceKind } from '../../src/schemas/index.js';

// Which problems the prompts can repair: those they ask about. Anything else must stop the command before the
// first prompt, or the merchant answers every question only to be refused at the end.

const now = new Date('2030-03-01T10:00:00.000Z');

/** The issue paths of a raw request that the prompts could not repair. */
function unanswerable(kind: InvoiceKind, raw: Record<string, unknown>): string[] {
  const merged = mergeInvoiceSources({ kind, defaults: {}, flags: raw, now });
  const result = validate(invoiceSchemas[kind], merged);
  if (result.success) return [];
  return result.issues
    .map((issue) => issue.path)
    .filter((path) => !canBeAsked(kind, path))
    .sort();
}

describe('canBeAsked', () => {
  it.each<[InvoiceKind, string]>([
    ['single', 'customer'],
    ['single', 'customer.name'],
    ['single', 'customer.email'],
    ['single', 'amount'],
    ['single', 'sendingDate'],
    ['single', 'note'],
    ['single', 'paymentType'],
    ['single', 'taxes'],
    ['single', 'items'],
    ['single', 'items[2]'],
    ['single', 'items[0].price'],
    ['single', 'items[0].discount.value'],
    ['recurring', 'cycleType'],
    ['recurring', 'cycleValue'],
    ['recurring', 'discount'],
    ['recurring', 'discount.type'],
    ['recurring', 'items[1].nameAr'],
  ])('%s: %s is asked for', (kind, path) => {
    expect(canBeAsked(kind, path)).toBe(true);
  });

  it.each<[InvoiceKind, string]>([
    ['single', 'cycleType'],
    ['single', 'cycleValue'],
    ['single', 'discount'],
    ['single', 'colour'],
    ['single', 'customer.phone'],
    ['single', 'items[0].colour'],
    ['recurring', 'paymentType'],
    ['recurring', 'items[0].discount'],
    ['recurring', 'items[0].discount.value'],
    ['recurring', 'discount.kind'],
  ])('%s: %s is never asked for', (kind, path) => {
    expect(canBeAsked(kind, path)).toBe(false);
  });

  it('finds only the fields of the other kind and unknown fields in a request that is also incomplete', () => {
    expect(unanswerable('recurring', { paymentType: 'PUSH_TO_CUSTOMER', note: 'x', colour: 'red' })).toEqual([
      'colour',
      'paymentType',
    ]);
    expect(unanswerable('single', { cycleType: 'MONTH', customer: { name: 'Amr', phone: '1' } })).toEqual([
      'customer.phone',
      'cycleType',
    ]);
  });

  it('finds nothing the prompts cannot repair in an empty or half-typed request', () => {
    expect(unanswerable('single', {})).toEqual([]);
    expect(unanswerable('recurring', {})).toEqual([]);
    expect(
      unanswerable('single', {
        customer: { name: '', mobile: '12' },
        amount: 'ten',
        sendingDate: '2025-02-29',
        communicationMethod: 'EMAIL',
        items: [{ itemCode: 'A', price: 'abc' }],
      }),
    ).toEqual([]);
  });
});
