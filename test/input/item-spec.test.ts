import { describe, expect, it } from 'vitest';
import { formatItemSpec, numberOrText, parseItemSpec, splitSpec } from '../../src/input/item-spec.js';
import { InexactNumber } from '../../src/schemas/exact-json.js';

describe('splitSpec', () => {
  it('splits on commas outside quotes', () => {
    expect(splitSpec('code=SKU1,qty=2,price=10.50')).toEqual(['code=SKU1', 'qty=2', 'price=10.50']);
  });

  it('keeps commas inside double or single quotes and drops the quotes', () => {
    expect(splitSpec('en="Shirt, blue",ar=\'قميص، أزرق\'')).toEqual(['en=Shirt, blue', 'ar=قميص، أزرق']);
  });

  it('reads a backslash as escaping the next character, inside quotes and out', () => {
    expect(splitSpec('en="The \\"best\\" shirt",code=A\\,B')).toEqual(['en=The "best" shirt', 'code=A,B']);
    expect(splitSpec("en='it\\'s'")).toEqual(["en=it's"]);
  });

  it('keeps the other kind of quote inside a quoted value', () => {
    expect(splitSpec(`en="Bob's shirt",ar='"x"'`)).toEqual(["en=Bob's shirt", 'ar="x"']);
  });

  it('returns undefined for an unclosed quote', () => {
    expect(splitSpec('en="Shirt, blue')).toBeUndefined();
    expect(splitSpec("code=A,en='x")).toBeUndefined();
  });
});

describe('numberOrText', () => {
  it.each(['90071992547409.93', '12345678901234567.89', '0.30000000000000001', '9007199254740993'])(
    'keeps %s, which no JSON number carries exactly, as typed for the schema to refuse',
    (typed) => {
      const value = numberOrText(typed);
      expect(value).toBeInstanceOf(InexactNumber);
      expect((value as InexactNumber).text).toBe(typed);
    },
  );

  it('turns plain decimal numbers into numbers and leaves anything else as typed', () => {
    expect(numberOrText('10.50')).toBe(10.5);
    expect(numberOrText(' 2 ')).toBe(2);
    expect(numberOrText('-3')).toBe(-3);
    expect(numberOrText('abc')).toBe('abc');
    expect(numberOrText('1e3')).toBe(1000);
    expect(numberOrText('1.5.2')).toBe('1.5.2');
    expect(numberOrText('')).toBe('');
  });
});

describe('parseItemSpec', () => {
  it('parses a full spec into the wire shape, with the discount as a FLAT discount', () => {
    expect(parseItemSpec('code=SKU1,qty=2,price=10.50,en=Shirt,ar=قميص,discount=5', 0)).toEqual({
      item: {
        itemCode: 'SKU1',
        purchasedQuantity: 2,
        price: 10.5,
        nameEn: 'Shirt',
        nameAr: 'قميص',
        discount: { value: 5, type: 'FLAT' },
      },
      issues: [],
    });
  });

  it('accepts the long key names, in any case', () => {
    const { item, issues } = parseItemSpec('ItemCode=A,Quantity=1,PRICE=3,nameEn=x,NameAr=ص', 0);
    expect(issues).toEqual([]);
    expect(item).toEqual({ itemCode: 'A', purchasedQuantity: 1, price: 3, nameEn: 'x', nameAr: 'ص' });
  });

  it('keeps quoted commas, escaped quotes and Arabic text in names', () => {
    const { item, issues } = parseItemSpec(
      'code=SKU-9,qty=1,price=0.1,en="Shirt, \\"slim\\" fit",ar="قميص، مقاس كبير"',
      0,
    );
    expect(issues).toEqual([]);
    expect(item).toEqual({
      itemCode: 'SKU-9',
      purchasedQuantity: 1,
      price: 0.1,
      nameEn: 'Shirt, "slim" fit',
      nameAr: 'قميص، مقاس كبير',
    });
  });

  it('keeps an = inside a value and trims spaces around keys and values', () => {
    expect(parseItemSpec(' code = A=B , qty = 3 ', 0).item).toEqual({ itemCode: 'A=B', purchasedQuantity: 3 });
  });

  it('leaves values that are not numbers as text, so the schema reports them', () => {
    expect(parseItemSpec('qty=two,price=abc,discount=x', 0).item).toEqual({
      purchasedQuantity: 'two',
      price: 'abc',
      discount: { value: 'x', type: 'FLAT' },
    });
  });

  it('reports values without keys once, as one unreadable item', () => {
    expect(parseItemSpec('SKU1, Shirt,2,10', 1)).toEqual({
      item: {},
      issues: [
        {
          path: 'items[1] (--item)',
          message:
            '"SKU1, Shirt,2,10" is not KEY=VALUE pairs: write code=SKU1,qty=2,price=10.50,en=Shirt,ar=قميص ' +
            '(discount=5 optional)',
        },
      ],
    });
  });

  it('says a value after KEY=VALUE that has no key most likely held a comma, and a lone value is not KEY=VALUE', () => {
    expect(parseItemSpec('code=A,en=Shirt, blue', 0).issues).toEqual([
      {
        path: 'items[0] (--item)',
        message: '"blue" has no KEY=: a value with a comma goes in quotes, e.g. en="Shirt, blue"',
      },
    ]);
    expect(parseItemSpec('SKU1', 0).issues).toEqual([
      {
        path: 'items[0] (--item)',
        message: '"SKU1" is not KEY=VALUE: write code=SKU1,qty=2,price=10.50,en=Shirt,ar=قميص (discount=5 optional)',
      },
    ]);
  });

  it('reports an unknown key and a part without = at the item position, keeping the rest', () => {
    const { item, issues } = parseItemSpec('code=A,colour=red,qty=1,discount', 2);
    expect(item).toEqual({ itemCode: 'A', purchasedQuantity: 1 });
    expect(issues).toEqual([
      {
        path: 'items[2] (--item)',
        message: '"colour" is not a key of an item. Keys: code, qty, price, en, ar, discount',
      },
      {
        path: 'items[2] (--item)',
        message: '"discount" has no value: write discount=VALUE',
      },
    ]);
  });

  it('refuses a key given twice, naming it, and the same field under its long name too', () => {
    const { item, issues } = parseItemSpec('code=S,qty=1,code=T,QTY=2,purchasedQuantity=3', 0);
    expect(item).toEqual({ itemCode: 'S', purchasedQuantity: 1 });
    expect(issues).toEqual([
      { path: 'items[0] (--item)', message: '"code" is given twice in one item: give it once' },
      { path: 'items[0] (--item)', message: '"QTY" is given twice in one item: give it once' },
      { path: 'items[0] (--item)', message: '"purchasedQuantity" (as "qty") is given twice in one item: give it once' },
    ]);
  });

  it('reports an unclosed quote and keeps nothing of the item', () => {
    expect(parseItemSpec('code=A,en="Shirt', 1)).toEqual({
      item: {},
      issues: [{ path: 'items[1] (--item)', message: 'has an unclosed quote' }],
    });
  });

  it('skips empty parts such as a trailing comma', () => {
    expect(parseItemSpec('code=A,,qty=1,', 0)).toEqual({ item: { itemCode: 'A', purchasedQuantity: 1 }, issues: [] });
  });
});

describe('formatItemSpec', () => {
  const base = { itemCode: 'SKU1', purchasedQuantity: 2, price: 10.5, nameEn: 'Shirt', nameAr: 'قميص' };

  it('writes plain values bare and the discount value last', () => {
    expect(formatItemSpec({ ...base, discount: { value: 5 } })).toBe(
      'code=SKU1,qty=2,price=10.5,en=Shirt,ar=قميص,discount=5',
    );
  });

  it('quotes values with commas, quotes, backslashes or = so they parse back the same', () => {
    const tricky = {
      ...base,
      itemCode: 'A=B',
      nameEn: `Shirt, "slim" fit \\ Bob's`,
      nameAr: 'قميص، أزرق',
    };
    const spec = formatItemSpec(tricky);
    expect(spec).toBe(`code="A=B",qty=2,price=10.5,en="Shirt, \\"slim\\" fit \\\\ Bob's",ar=قميص، أزرق`);
    expect(parseItemSpec(spec, 0)).toEqual({ item: tricky, issues: [] });
  });
});
