import { describe, expect, test } from 'vitest';
import { statisticsGroups, statisticsSchema } from '../../src/schemas/statistics.js';
import { issuesOf, parsed } from './fixtures.js';

// The statistics response of spec 2.4: six groups, each a count and a total amount.

const statistics = () => ({
  allInvoices: { totalCount: 10, totalAmount: 1520.5 },
  paidInvoices: { totalCount: 4, totalAmount: 800 },
  unpaidInvoices: { totalCount: 3, totalAmount: 420.5 },
  expiredInvoices: { totalCount: 1, totalAmount: 100 },
  refundedInvoices: { totalCount: 1, totalAmount: 150 },
  canceledInvoices: { totalCount: 1, totalAmount: 50 },
});

describe('statisticsSchema', () => {
  test('the sample response is read as given', () => {
    expect(parsed(statisticsSchema, statistics())).toEqual(statistics());
  });

  test('the six groups are those the spec names, in its order', () => {
    expect(statisticsGroups).toEqual(Object.keys(statistics()));
  });

  test('a group the service adds later is kept', () => {
    const body = { ...statistics(), draftInvoices: { totalCount: 2, totalAmount: 30 } };
    expect(parsed(statisticsSchema, body)).toEqual(body);
  });

  test.each([0, 1e6])('totalCount %d is accepted', (totalCount) => {
    const body = { ...statistics(), paidInvoices: { totalCount, totalAmount: 0 } };
    expect(parsed(statisticsSchema, body).paidInvoices.totalCount).toBe(totalCount);
  });

  test.each(statisticsGroups)('a missing %s is named', (group) => {
    const body: Record<string, unknown> = statistics();
    delete body[group];
    expect(issuesOf(statisticsSchema, body)).toEqual([{ path: group, message: 'is required' }]);
  });

  test.each([
    { path: 'paidInvoices', group: 'none', message: 'must be an object' },
    { path: 'paidInvoices.totalCount', group: { totalAmount: 1 }, message: 'is required' },
    { path: 'paidInvoices.totalCount', group: { totalCount: -1, totalAmount: 1 }, message: 'must be at least 0' },
    { path: 'paidInvoices.totalCount', group: { totalCount: 2.5, totalAmount: 1 }, message: 'must be a whole number' },
    {
      path: 'paidInvoices.totalCount',
      group: { totalCount: '4', totalAmount: 1 },
      message: 'must be a whole number, not text ("4")',
    },
    { path: 'paidInvoices.totalAmount', group: { totalCount: 1 }, message: 'is required' },
    { path: 'paidInvoices.totalAmount', group: { totalCount: 1, totalAmount: '800.00' }, message: 'must be a number' },
  ])('paidInvoices $group is rejected at $path', ({ path, group, message }) => {
    expect(issuesOf(statisticsSchema, { ...statistics(), paidInvoices: group })).toEqual([{ path, message }]);
  });

  test('a body that is not an object is reported for the whole response', () => {
    expect(issuesOf(statisticsSchema, [])).toEqual([{ path: '(request)', message: 'must be an object' }]);
  });
});
