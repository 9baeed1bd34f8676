import { describe, expect, test } from 'vitest';
import { recurringItemSchema, singleItemSchema } from '../../src/schemas/item.js';
import { issuesOf, item, parsed, without } from './fixtures.js';

// The item of spec 2.2, on its own: paths are relative to the item.

const kinds = [
  { kind: 'single', schema: singleItemSchema },
  { kind: 'recurring', schema: recurringItemSchema },
] as const;

describe.each(kinds)('$kind item', ({ schema }) => {
  test('is kept as given, key order included, with text trimmed', () => {
    const given = { itemCode: ' SKU-1', purchasedQuantity: 2, price: 49.99, nameEn: 'Mug ', nameAr: ' كوب ' };
    expect(JSON.stringify(parsed(schema, given))).toBe(JSON.stringify(item()));
  });

  test.each([0, 0.01, 49.99, 1000000])('price %d is accepted', (price) => {
    expect(parsed(schema, { ...item(), price }).price).toBe(price);
  });

  test.each([1, 3, 1000])('purchasedQuantity %d is accepted', (purchasedQuantity) => {
    expect(parsed(schema, { ...item(), purchasedQuantity }).purchasedQuantity).toBe(purchasedQuantity);
  });

  test.each([
    { path: 'itemCode', patch: { itemCode: undefined }, message: 'is required' },
    { path: 'itemCode', patch: { itemCode: ' ' }, message: 'must not be empty' },
    { path: 'itemCode', patch: { itemCode: 17 }, message: 'must be text, not the number 17 (in quotes: "17")' },
    { path: 'nameEn', patch: { nameEn: '' }, message: 'must not be empty' },
    { path: 'nameAr', patch: { nameAr: undefined }, message: 'is required' },
    { path: 'purchasedQuantity', patch: { purchasedQuantity: 0 }, message: 'must be at least 1' },
    { path: 'purchasedQuantity', patch: { purchasedQuantity: -2 }, message: 'must be at least 1' },
    { path: 'purchasedQuantity', patch: { purchasedQuantity: 1.5 }, message: 'must be a whole number' },
    {
      path: 'purchasedQuantity',
      patch: { purchasedQuantity: '2' },
      message: 'must be a whole number, not text ("2")',
    },
    { path: 'purchasedQuantity', patch: { purchasedQuantity: 'two' }, message: 'must be a whole number' },
    { path: 'purchasedQuantity', patch: { purchasedQuantity: undefined }, message: 'is required' },
    { path: 'price', patch: { price: -0.01 }, message: 'must be 0 or more' },
    { path: 'price', patch: { price: -0.001 }, message: 'must be 0 or more' },
    { path: 'price', patch: { price: 49.999 }, message: 'must have at most two decimals' },
    { path: 'price', patch: { price: 0.005 }, message: 'must have at most two decimals' },
    { path: 'price', patch: { price: ' 49.99' }, message: 'must be a number, not text (" 49.99")' },
    { path: 'price', patch: { price: '49,99' }, message: 'must be a number, written with a decimal point: 49.99' },
    {
      path: 'price',
      patch: { price: '1,249.99' },
      message: 'must be a number, written without thousands separators: 1249.99',
    },
    { path: 'price', patch: { price: '1,2,3' }, message: 'must be a number' },
    {
      path: 'price',
      patch: { price: '1.249,99' },
      message: 'must be a number, written with a decimal point and no thousands separators: 1249.99',
    },
    { path: 'price', patch: { price: Infinity }, message: 'must be a number' },
    { path: 'price', patch: { price: NaN }, message: 'must be a number' },
    { path: 'price', patch: { price: undefined }, message: 'is required' },
    { path: 'colour', patch: { colour: 'red' }, message: 'is not a known field' },
    { path: 'quantity', patch: { quantity: 2 }, message: 'is not a known field; did you mean purchasedQuantity?' },
  ])('$path rejects $patch', ({ path, patch, message }) => {
    expect(issuesOf(schema, { ...item(), ...patch })).toEqual([{ path, message }]);
  });

  test('every failing field is named', () => {
    expect(issuesOf(schema, { ...without(item(), 'itemCode'), price: -1, purchasedQuantity: 0 })).toEqual([
      { path: 'itemCode', message: 'is required' },
      { path: 'purchasedQuantity', message: 'must be at least 1' },
      { path: 'price', message: 'must be 0 or more' },
    ]);
  });
});

describe('singleItemSchema: the item discount', () => {
  const TOO_MUCH = 'must not be more than the item total (price x purchasedQuantity)';

  test.each([
    { price: 49.99, purchasedQuantity: 2, value: 99.98 }, // exactly the total
    { price: 0.1, purchasedQuantity: 3, value: 0.3 }, // 0.1 x 3 is 0.30000000000000004 in floats
    { price: 10, purchasedQuantity: 1, value: 0 },
  ])('a discount of $value on $purchasedQuantity x $price is accepted', ({ price, purchasedQuantity, value }) => {
    const given = { ...item(), price, purchasedQuantity, discount: { value, type: 'FLAT' } };
    expect(parsed(singleItemSchema, given).discount).toEqual({ value, type: 'FLAT' });
  });

  test.each([
    { price: 49.99, purchasedQuantity: 2, value: 99.99 },
    { price: 0, purchasedQuantity: 5, value: 0.01 },
    { price: 0.1, purchasedQuantity: 3, value: 0.31 },
  ])(
    'a discount of $value on $purchasedQuantity x $price is rejected at discount.value',
    ({ price, purchasedQuantity, value }) => {
      const given = { ...item(), price, purchasedQuantity, discount: { value, type: 'FLAT' } };
      expect(issuesOf(singleItemSchema, given)).toEqual([{ path: 'discount.value', message: TOO_MUCH }]);
    },
  );

  test.each([
    { patch: { purchasedQuantity: 0 }, path: 'purchasedQuantity', message: 'must be at least 1' },
    { patch: { purchasedQuantity: 1.5 }, path: 'purchasedQuantity', message: 'must be a whole number' },
    { patch: { price: -5 }, path: 'price', message: 'must be 0 or more' },
  ])('a wrong $path is reported alone, not as a discount above the total', ({ patch, path, message }) => {
    const given = { ...item(), ...patch, discount: { value: 5, type: 'FLAT' } };
    expect(issuesOf(singleItemSchema, given)).toEqual([{ path, message }]);
  });

  test('the discount is optional and not added when absent', () => {
    expect(parsed(singleItemSchema, item())).not.toHaveProperty('discount');
  });
});

describe('recurringItemSchema: no item discount', () => {
  test.each([{ value: 5, type: 'FLAT' }, { value: 0, type: 'FLAT' }, null, 5])(
    'discount %j is rejected',
    (discount) => {
      expect(issuesOf(recurringItemSchema, { ...item(), discount })).toEqual([
        {
          path: 'discount',
          message: 'applies only to items of a single invoice; a recurring invoice takes one top-level discount',
        },
      ]);
    },
  );
});
