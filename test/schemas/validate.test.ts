import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { singleInvoiceSchema } from '../../src/schemas/invoice.js';
import { formatPath, toFieldIssues, validate } from '../../src/schemas/validate.js';
import { item, singleInvoice } from './fixtures.js';

// How a zod failure becomes one issue per field, with paths written the way a merchant reads them.

describe('formatPath', () => {
  test.each([
    { path: [], written: '(request)' },
    { path: ['amount'], written: 'amount' },
    { path: ['customer', 'email'], written: 'customer.email' },
    { path: ['items', 2, 'price'], written: 'items[2].price' },
    { path: ['items', 0, 'discount', 'value'], written: 'items[0].discount.value' },
    { path: ['items', 10], written: 'items[10]' },
    { path: [3, 'amount'], written: '[3].amount' },
    { path: ['grid', 1, 2], written: 'grid[1][2]' },
  ])('$path is written $written', ({ path, written }) => {
    expect(formatPath(path)).toBe(written);
  });
});

describe('validate', () => {
  test('returns the parsed value on success', () => {
    expect(validate(z.strictObject({ name: z.string().trim() }), { name: ' Mona ' })).toEqual({
      success: true,
      data: { name: 'Mona' },
    });
  });

  test('returns one issue per failing field, in order, with formatted paths', () => {
    const items = [item(), { ...item(), purchasedQuantity: 0 }, { ...item(), price: -1 }];
    const result = validate(singleInvoiceSchema, { ...singleInvoice(), amount: 0, items });
    expect(result).toEqual({
      success: false,
      issues: [
        { path: 'amount', message: 'must be greater than 0' },
        { path: 'items[1].purchasedQuantity', message: 'must be at least 1' },
        { path: 'items[2].price', message: 'must be 0 or more' },
      ],
    });
  });

  test('names each unknown field at its own path', () => {
    const payload = {
      ...singleInvoice(),
      colour: 'red',
      size: 'L',
      customer: { ...singleInvoice().customer, phone: '1' },
      items: [{ ...item(), colour: 'red' }],
    };
    const result = validate(singleInvoiceSchema, payload);
    expect(result.success ? [] : result.issues.map((issue) => issue.path).sort()).toEqual(
      ['colour', 'customer.phone', 'items[0].colour', 'size'].sort(),
    );
    expect(result.success ? [] : new Set(result.issues.map((issue) => issue.message))).toEqual(
      new Set(['is not a known field']),
    );
  });

  test.each([
    { input: undefined, message: 'is required' },
    { input: 'x', message: 'must be an object' },
    { input: [], message: 'must be an object' },
  ])('words a wrong whole input ($input) itself: $message', ({ input, message }) => {
    expect(validate(z.object({ a: z.string() }), input)).toEqual({
      success: false,
      issues: [{ path: '(request)', message }],
    });
  });

  test.each([
    { schema: z.object({ a: z.string() }), input: { a: 1 }, message: 'must be text' },
    { schema: z.object({ a: z.number() }), input: { a: 'x' }, message: 'must be a number' },
    { schema: z.object({ a: z.boolean() }), input: { a: 'x' }, message: 'must be true or false' },
    { schema: z.object({ a: z.array(z.string()) }), input: { a: 'x' }, message: 'must be a list' },
    { schema: z.object({ a: z.int() }), input: { a: 1.5 }, message: 'must be a whole number' },
    { schema: z.object({ a: z.string() }), input: {}, message: 'is required' },
  ])('words a wrong type no rule words itself: $message', ({ schema, input, message }) => {
    expect(validate(schema, input)).toEqual({ success: false, issues: [{ path: 'a', message }] });
  });

  test("keeps a schema's own message over the fallback", () => {
    const schema = z.object({ a: z.string({ error: 'must be the shop name' }) });
    expect(validate(schema, { a: 1 })).toEqual({
      success: false,
      issues: [{ path: 'a', message: 'must be the shop name' }],
    });
  });
});

describe('toFieldIssues', () => {
  test('splits one unknown-keys issue into one issue per key', () => {
    const result = z.strictObject({ a: z.object({}).strict() }).safeParse({ a: { x: 1, y: 2 } });
    expect(result.success).toBe(false);
    expect(result.error && toFieldIssues(result.error)).toEqual([
      { path: 'a.x', message: 'is not a known field' },
      { path: 'a.y', message: 'is not a known field' },
    ]);
  });
});

describe('an unknown key', () => {
  test('stands for the field it was meant to be: that field is not also told it is required', () => {
    const schema = z.strictObject({
      amount: z.number(),
      note: z.string(),
      customer: z.strictObject({ name: z.string() }),
    });
    const result = validate(schema, { amout: 10, customer: { nmae: 'A' } });
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect((result.success ? [] : result.issues).sort(byPath)).toEqual([
      { path: 'amout', message: 'is not a known field; did you mean amount?' },
      { path: 'customer.nmae', message: 'is not a known field; did you mean name?' },
      { path: 'note', message: 'is required' },
    ]);
  });

  test('is told the known key of the same object it was most likely meant to be', () => {
    const schema = z.strictObject({
      customer: z.strictObject({ name: z.string(), email: z.string().optional() }),
      items: z.array(z.strictObject({ price: z.number(), nameEn: z.string() })).optional(),
      environments: z.record(z.string(), z.strictObject({ token: z.string() })),
      discount: z.union([
        z.strictObject({ type: z.literal('FLAT'), value: z.number() }),
        z.strictObject({ type: z.literal('PERCENTAGE'), percent: z.number() }),
      ]),
      note: z.string().transform((text) => text.trim()),
    });
    const result = validate(schema, {
      customer: { name: 'A', emial: 'a@example.com' },
      items: [
        { price: 1, nameEn: 'x' },
        { prise: 2, nameEn: 'y' },
      ],
      environments: { staging: { tokn: 'x' } },
      discount: { type: 'FLAT', value: 1, percnt: 5 },
      note: 'n',
      noet: 'n',
      colour: 'red',
    });
    expect(result.success).toBe(false);
    const unknown = result.success ? [] : result.issues.filter((issue) => issue.message.startsWith('is not a known'));
    expect(unknown).toEqual([
      { path: 'customer.emial', message: 'is not a known field; did you mean email?' },
      { path: 'items[1].prise', message: 'is not a known field; did you mean price?' },
      { path: 'environments.staging.tokn', message: 'is not a known field; did you mean token?' },
      { path: 'discount.percnt', message: 'is not a known field; did you mean percent?' },
      { path: 'noet', message: 'is not a known field; did you mean note?' },
      { path: 'colour', message: 'is not a known field' },
    ]);
  });
});
