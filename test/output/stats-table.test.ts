import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatAmount, formatCount, toJson } from '../../src/output/format.js';
import { renderStatsTable, shareBar } from '../../src/output/stats-table.js';
import { sampleStatistics } from '../helpers/http-server.js';

const plain = new Chalk({ level: 0 });

describe('formatAmount and formatCount', () => {
  it('writes two decimals and thousands separators', () => {
    expect(formatAmount(1234567.5)).toBe('1,234,567.50');
    expect(formatAmount(0)).toBe('0.00');
    expect(formatAmount(99.999)).toBe('100.00');
    expect(formatCount(12345)).toBe('12,345');
  });

  it('prints JSON indented by two spaces, keys in their order', () => {
    expect(toJson({ b: 1, a: [1] })).toBe('{\n  "b": 1,\n  "a": [\n    1\n  ]\n}');
  });
});

describe('shareBar', () => {
  it('is always 20 cells, filled in eighths of a block', () => {
    expect(shareBar(1)).toBe('█'.repeat(20));
    expect(shareBar(0)).toBe(' '.repeat(20));
    expect(shareBar(0.5)).toBe(`${'█'.repeat(10)}${' '.repeat(10)}`);
    expect(shareBar(1 / 160)).toBe(`▏${' '.repeat(19)}`);
    for (const share of [0.01, 0.33, 0.77, 0.999]) expect(shareBar(share)).toHaveLength(20);
  });

  it('clamps shares outside 0 to 1 and non-numbers', () => {
    expect(shareBar(2)).toBe('█'.repeat(20));
    expect(shareBar(-1)).toBe(' '.repeat(20));
    expect(shareBar(Number.NaN)).toBe(' '.repeat(20));
  });
});

describe('renderStatsTable', () => {
  it('has a header and one row per group, in the service order', () => {
    const lines = renderStatsTable(sampleStatistics(), plain).split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[0]).toMatch(/^Invoices\s+Count\s+Amount\s+Share of amount$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual([
      'All',
      'Paid',
      'Unpaid',
      'Expired',
      'Refunded',
      'Canceled',
    ]);
  });

  it('shows counts, two-decimal amounts and each share of all invoices', () => {
    const lines = renderStatsTable(sampleStatistics(), plain).split('\n');
    expect(lines[1]).toMatch(/^All\s+1,250\s+1,234,567\.50\s+█{20} 100%$/);
    expect(lines[2]).toMatch(/^Paid\s+700\s+617,283\.75\s+█{10} {10} {2}50%$/);
    expect(lines[3]).toMatch(/^Unpaid\s+300\s+308,641\.88\s+█{5} {15} {2}25%$/);
    expect(lines[4]).toMatch(/^Expired\s+100\s+123,456\.70\s+█{2} {18} {2}10%$/);
    expect(lines[5]).toMatch(/^Refunded\s+50\s+61,728\.35\s+█ {19} {3}5%$/);
  });

  it('right-aligns the numbers so the columns line up', () => {
    const lines = renderStatsTable(sampleStatistics(), plain).split('\n');
    const amountEnds = lines.slice(1).map((line) => line.indexOf('.') + 3);
    expect(new Set(amountEnds).size).toBe(1);
  });

  it('draws empty bars, not a division by zero, when there are no invoices', () => {
    const zero = { totalCount: 0, totalAmount: 0 };
    const empty = {
      allInvoices: zero,
      paidInvoices: zero,
      unpaidInvoices: zero,
      expiredInvoices: zero,
      refundedInvoices: zero,
      canceledInvoices: zero,
    };
    const table = renderStatsTable(empty, plain);
    expect(table).not.toMatch(/NaN|Infinity|█/);
    expect(table.split('\n')[1]).toMatch(/^All\s+0\s+0\.00\s+ {20} {3}0%$/);
  });

  it('colours only when given a colouring chalk', () => {
    expect(renderStatsTable(sampleStatistics(), plain)).not.toContain('\u001b[');
    expect(renderStatsTable(sampleStatistics(), new Chalk({ level: 1 }))).toContain('\u001b[');
  });
});
