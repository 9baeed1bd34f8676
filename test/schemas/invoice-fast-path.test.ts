import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import { invoiceKinds, invoiceSchemas, validate, type InvoiceKind } from '../../src/schemas/index.js';
import { fastPathSchemas, parseValidInvoice } from '../../src/schemas/invoice-fast-path.js';
import { corpus, withField } from './json-schema-corpus.js';
import { item, recurringInvoice, singleInvoice } from './fixtures.js';

// The compiled fast path must give exactly what the request schema gives: the same parsed invoice for every payload
// the schema accepts, and nothing for every payload it refuses (the schema then words the issues).

/** The request schema's verdict and the fast path's, side by side. */
function bothVerdicts(kind: InvoiceKind, payload: unknown) {
  const checked = validate(invoiceSchemas[kind], payload);
  return { schema: checked.success ? checked.data : undefined, fastPath: parseValidInvoice(kind, payload) };
}

const bases = { single: singleInvoice, recurring: recurringInvoice };

/** Payloads beyond the corpus: several problems at once, the e-mail rule beside other problems, rewritten values. */
function morePayloads(kind: InvoiceKind): unknown[] {
  const base = bases[kind];
  const noEmail = { name: 'Mona', mobile: '+201001234567' };
  return [
    { ...base(), communicationMethod: 'EMAIL', customer: noEmail, note: '' },
    { ...base(), communicationMethod: 'BOTH', customer: noEmail, amount: -1 },
    { ...base(), communicationMethod: 'EMAIL', customer: { ...noEmail, email: ' ' } },
    { ...base(), customer: { name: '  Mona  ', mobile: ' +201001234567 ' }, note: ' spaced ', taxes: 14 },
    { ...base(), alertMerchantUponExpiry: 'false', taxes: ' 007.50 ' },
    { ...base(), items: [item(), { ...item(), itemCode: ' SKU-2 ', price: 0.07, purchasedQuantity: 3 }] },
    withField(base(), 'items.0.discount', { value: 99.98, type: 'FLAT' }),
    withField(base(), 'items.0.discount', { value: 99.99, type: 'FLAT' }),
    withField(base(), 'items.0.discount', { value: 200, type: 'FLAT', note: 'x' }),
    withField(base(), 'amount', Number.NaN),
    withField(base(), 'amount', Number.POSITIVE_INFINITY),
    null,
    'an invoice',
    {},
  ];
}

describe.each(invoiceKinds)('the %s fast path', (kind) => {
  test('is compiled: zod would otherwise quietly use its slower parser', () => {
    expect(() => z.compile<z.ZodType>(fastPathSchemas[kind], { strict: true })).not.toThrow();
  });

  test.each(corpus[kind])('$name', ({ payload }) => {
    const { schema, fastPath } = bothVerdicts(kind, payload);
    expect(fastPath).toStrictEqual(schema);
  });

  test('agrees with the schema on payloads with several problems or rewritten values', () => {
    for (const payload of morePayloads(kind)) {
      const { schema, fastPath } = bothVerdicts(kind, payload);
      expect(fastPath, JSON.stringify(payload)).toStrictEqual(schema);
    }
  });

  test('agrees with the schema on amounts with up to four decimals', () => {
    for (let cents = -300; cents <= 300_000; cents += 7) {
      const payload = withField(bases[kind](), 'amount', cents / 1000);
      const { schema, fastPath } = bothVerdicts(kind, payload);
      expect(fastPath === undefined, String(cents / 1000)).toBe(schema === undefined);
    }
  });
});
