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

/** A seeded generator, so a failure names an amount that fails again on the next run. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

/**
 * Amounts at each edge of the money rule (zero, the last hundredth, a third decimal, float sums, the recurring FLAT
 * discount of 10, the ceiling) and 400 seeded hundredths and thousandths from -0.3 up, in place of a sweep of every
 * thousandth to 300 that took seconds of CPU.
 */
function amounts(): number[] {
  const edges = [-0.01, -0.001, -0, 0, Number.MIN_VALUE, 0.001, 0.005, 0.009, 0.01, 0.011, 0.07, 0.1 + 0.2, 0.29];
  const near = [1.005, 9.99, 9.999, 10, 10.001, 12.345, 19.99, 99.98, 99.985, 1234.565, 300, 300.001];
  const large = [9_999_999_999_999.98, 9_999_999_999_999.99, 1e13, 1e13 + 0.01, 123_456_789_012.345, 1e15];
  const next = random(33);
  const sample = Array.from({ length: 400 }, (_, index) => {
    // Hundredths and thousandths alike, half of them up to 300 and half up to a thousand million.
    const scale = index % 2 === 0 ? 100 : 1000;
    const above = (index % 4 < 2 ? 300 : 1e9) * scale;
    return (Math.floor(next() * (above + 0.3 * scale)) - 0.3 * scale) / scale;
  });
  return [...edges, ...near, ...large, Number.NaN, ...sample];
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

  test('agrees with the schema on boundary amounts and a seeded sample of amounts with up to three decimals', () => {
    const verdicts = amounts().map((amount) => {
      const { schema, fastPath } = bothVerdicts(kind, withField(bases[kind](), 'amount', amount));
      expect(fastPath === undefined, String(amount)).toBe(schema === undefined);
      return schema !== undefined;
    });
    // Both verdicts are met, so the agreement is not one of a sample refused whole.
    expect(verdicts.filter(Boolean).length).toBeGreaterThan(50);
    expect(verdicts.filter((accepted) => !accepted).length).toBeGreaterThan(50);
  });
});
