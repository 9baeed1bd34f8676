import { describe, expect, it } from 'vitest';
import type { UsageError } from '../../src/errors.js';
import { resolveColumn } from '../../src/sheet/csv-columns.js';
import { readCell, rowToRecord, splitItemSpecs } from '../../src/sheet/csv-cells.js';
import { columnLetter, readCsvRecords, sniffDelimiter } from '../../src/sheet/csv-records.js';
import { InexactNumber } from '../../src/schemas/exact-json.js';
import { chunked, collect } from '../bulk/helpers.js';

describe('resolveColumn', () => {
  it('reads dotted paths, flag names and item columns', () => {
    expect(resolveColumn('customer.mobile')).toEqual({ path: 'customer.mobile', cell: 'text' });
    expect(resolveColumn('customer-mobile')).toEqual({ path: 'customer.mobile', cell: 'text' });
    expect(resolveColumn(' Amount ')).toEqual({ path: 'amount', cell: 'number' });
    expect(resolveColumn('lang')).toEqual({ path: 'communicationLang', cell: 'text' });
    expect(resolveColumn('sendingDate')).toEqual({ path: 'sendingDate', cell: 'date' });
    expect(resolveColumn('alertMerchantUponExpiry')).toEqual({ path: 'alertMerchantUponExpiry', cell: 'boolean' });
    expect(resolveColumn('discount.value')).toEqual({ path: 'discount.value', cell: 'number' });
    expect(resolveColumn('items[2].price')).toEqual({ path: 'items[2].price', cell: 'number' });
    expect(resolveColumn('items[0].discount.value')).toEqual({ path: 'items[0].discount.value', cell: 'number' });
    expect(resolveColumn('items')).toEqual({ path: 'items', cell: 'item-specs' });
    expect(resolveColumn('item')).toEqual({ path: 'items', cell: 'item-specs' });
  });

  it('names an unknown column with the nearest field, or none when nothing is near', () => {
    expect(resolveColumn('custmer.mobile')).toEqual({ unknown: 'custmer.mobile', suggestion: 'customer.mobile' });
    expect(resolveColumn('items[1].prise')).toEqual({ unknown: 'items[1].prise', suggestion: 'items[0].price' });
    expect(resolveColumn('price')).toEqual({ unknown: 'price', suggestion: 'items[0].price' });
    // A field's own name without its object: the field.
    expect(resolveColumn('mobile')).toEqual({ unknown: 'mobile', suggestion: 'customer.mobile' });
    expect(resolveColumn('name')).toEqual({ unknown: 'name', suggestion: 'customer.name' });
    expect(resolveColumn('Region')).toEqual({ unknown: 'Region', suggestion: undefined });
  });
});

describe('cells', () => {
  it('reads numbers exactly, thousands separators included, never through a float', () => {
    const amount = { path: 'amount', cell: 'number' } as const;
    expect(readCell('1,250.50', amount, undefined)).toEqual({ value: 1250.5 });
    expect(readCell(' 0.10 ', amount, undefined)).toEqual({ value: 0.1 });
    expect(readCell('90,071,992,547,409.93', amount, undefined)).toEqual({
      value: new InexactNumber('90071992547409.93'),
    });
    // Not a grouped number: left for the schema to refuse by name.
    expect(readCell('1,25', amount, undefined)).toEqual({ value: '1,25' });
  });

  it('reads DD/MM/YYYY dates only when declared', () => {
    const date = { path: 'sendingDate', cell: 'date' } as const;
    expect(readCell('3/4/2030', date, 'DD/MM/YYYY')).toEqual({ value: '2030-04-03' });
    expect(readCell('2030-04-03', date, 'DD/MM/YYYY')).toEqual({ value: '2030-04-03' });
    expect(readCell('3/4/2030', date, undefined)).toMatchObject({ issue: expect.stringContaining('--date-format') });
  });

  it('names a date in another shape with the shapes that are read, and leaves words to the schema', () => {
    const date = { path: 'sendingDate', cell: 'date' } as const;
    for (const written of ['01-12-2026', '01/12/26', '2026/12/01', '1.12.2026', '2026-12-1']) {
      const declared = 'not a date as declared with --date-format DD/MM/YYYY (31/12/2026), nor YYYY-MM-DD';
      expect(readCell(written, date, 'DD/MM/YYYY'), written).toEqual({
        issue: `is ${written}: ${declared}`,
        cause: declared,
      });
      const undeclared = 'write a date as YYYY-MM-DD (2026-12-31), or declare DD/MM/YYYY with --date-format';
      expect(readCell(written, date, undefined), written).toEqual({
        issue: `is ${written}: ${undeclared}`,
        cause: undeclared,
      });
    }
    expect(readCell('today', date, 'DD/MM/YYYY')).toEqual({ value: 'today' });
    expect(readCell('+30d', date, undefined)).toEqual({ value: '+30d' });
    expect(readCell('2030-02-01T23:59:59.999Z', date, undefined)).toEqual({ value: '2030-02-01T23:59:59.999Z' });
  });

  it('builds the record of a row: nested fields, items, empty cells left out', () => {
    const row = rowToRecord(
      ['Amr', '', 'TRUE', 'code=A,qty=1,price=2,en=a,ar=ب|code=B,qty=2,price=1.5,en=b,ar=ت'],
      [
        { path: 'customer.name', cell: 'text' },
        { path: 'customer.mobile', cell: 'text' },
        { path: 'alertMerchantUponExpiry', cell: 'boolean' },
        { path: 'items', cell: 'item-specs' },
      ],
      undefined,
    );
    expect(row.issues).toEqual([]);
    expect(row.value).toEqual({
      customer: { name: 'Amr' },
      alertMerchantUponExpiry: true,
      items: [
        { itemCode: 'A', purchasedQuantity: 1, price: 2, nameEn: 'a', nameAr: 'ب' },
        { itemCode: 'B', purchasedQuantity: 2, price: 1.5, nameEn: 'b', nameAr: 'ت' },
      ],
    });
    expect(splitItemSpecs('code="a;b",qty=1;code=c\r\ncode=d')).toEqual(['code="a;b",qty=1', 'code=c', 'code=d']);
  });

  it('reports an item left empty before a later one', () => {
    const row = rowToRecord(['5'], [{ path: 'items[1].price', cell: 'number' }], undefined);
    expect(row.issues).toEqual([{ path: 'items[0]', message: 'is empty while a later item is given' }]);
  });
});

describe('reading a CSV input', () => {
  it('numbers rows as a spreadsheet does across chunk cuts (inside Arabic letters), blank lines and multi-line cells', async () => {
    const text = '\uFEFFnote;amount\r\n"a\r\nb";1\r\n\r\n;\r\nقميص;"2,000"\r\n';
    const { records } = readCsvRecords(chunked(text, 3), { name: 'sheet.csv' });
    const read = await collect(records);
    expect(read.map((record) => [record.position, record.line, record.value])).toEqual([
      [0, 2, { note: 'a\r\nb', amount: 1 }],
      [1, 5, { note: 'قميص', amount: 2000 }],
    ]);
  });

  it.each([
    [
      'customer.name,note\nA,x\nB,"never closed\nC,y\n',
      'row 3, column B: a quote opens a cell that is never closed (it runs to the end of the file)',
    ],
    ['customer.name,note\nA,x\n"Amr" Hassan,y\n', 'row 3, column A: a quoted cell goes on after its closing quote'],
    ['customer.name,note\nA,x\nB,a"b\n', 'row 3, column B: a quote inside a cell that does not begin with one'],
  ])('names the row and column of a quote that breaks the sheet', async (text, problem) => {
    const { records } = readCsvRecords(chunked(text, 5), { name: 'sheet.csv' });
    const failure = await collect(records).then(
      () => undefined,
      (error: unknown) => error as UsageError,
    );
    expect(failure?.message).toBe(`--file sheet.csv is not valid CSV: ${problem}; nothing was sent.`);
    expect(failure?.hint).toContain('each quote in it twice');
  });

  it('places issues by row, column name and letter', async () => {
    const { records, place } = readCsvRecords(chunked('note,items\nx,code=A\n', 4), { name: 'sheet.csv' });
    const [record] = await collect(records);
    if (!record) throw new Error('no record');
    expect(place(record)).toBe('row 2');
    expect(place(record, 'note')).toBe('row 2, column note (A)');
    expect(place(record, 'items[0].price')).toBe('row 2, column items (B): items[0].price');
    expect(place(record, 'customer')).toBe('row 2, customer');
  });

  it('sniffs the separator from the header only when unambiguous', () => {
    expect(sniffDelimiter('a;b;"c,d"\n1,2', 'x')).toBe(';');
    expect(sniffDelimiter('a\tb\n', 'x')).toBe('\t');
    expect(sniffDelimiter('note\n', 'x')).toBe(',');
    expect(() => sniffDelimiter('a;b,c\n', 'x')).toThrow('its header holds "," and ";"');
    expect([0, 25, 26, 51, 52, 701, 702].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});
