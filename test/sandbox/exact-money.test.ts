import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox/index.js';
import { emptyState, type StoredInvoice } from '../../src/sandbox/state.js';
import { openStore } from '../../src/sandbox/store.js';
import { call } from './support.js';
import { startTestSandbox, unpaidInvoice, type TestSandbox } from '../helpers/sandbox.js';

// The sandbox applies the CLI's ceilings and reads numbers exactly, so a body the CLI would refuse is refused here
// too, and its statistics, added up in exact minor units, are always finite numbers.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** Posts `body` (JSON text, numbers exactly as written) to create a single invoice. */
async function createRaw(body: string) {
  const response = await fetch(`${sandbox.url}/invoice-api/invoices/single`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${sandbox.token}` },
    body,
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

const withAmount = (amount: string) => JSON.stringify(unpaidInvoice({ amount: '@@' })).replace('"@@"', amount);

describe('sandbox: money exact or refused', () => {
  it.each([
    ['1e308', 'must be at most 9,999,999,999,999.99'],
    ['10000000000000', 'must be at most 9,999,999,999,999.99'],
    ['90071992547409.93', '90071992547409.93 cannot be sent exactly'],
  ])('an amount of %s is refused with 400 naming the field and the ceiling', async (amount, message) => {
    const before = (await sandbox.api.invoices()).length;
    const { status, body } = await createRaw(withAmount(amount));
    expect(status).toBe(400);
    expect(body).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'amount', message: expect.stringContaining(message) }],
    });
    expect((await sandbox.api.invoices()).length).toBe(before);
  });

  it('statistics of many invoices at the ceiling are finite numbers', async () => {
    for (let index = 0; index < 3; index++) {
      expect((await createRaw(withAmount('9999999999999.99'))).status).toBe(201);
    }
    const response = await fetch(`${sandbox.url}/invoice-api/invoices/statistics`, {
      headers: { authorization: `Bearer ${sandbox.token}` },
    });
    const statistics = (await response.json()) as Record<string, { totalAmount: unknown }>;
    for (const group of Object.values(statistics)) expect(Number.isFinite(group.totalAmount)).toBe(true);
    expect(statistics.allInvoices?.totalAmount).toBe(29_999_999_999_999.97);
  });
});

describe('statistics of a state written before the ceilings', () => {
  it('are finite numbers even when amounts of 1e308 add up past the largest double', async () => {
    const state = emptyState('1000001');
    const stored = (invoiceNumber: string, status: string) => ({
      invoiceNumber,
      kind: 'single',
      status,
      amount: 1e308,
      sendingDate: '2026-01-01',
      releaseDate: '2026-01-01T00:00:00.000Z',
      expiryDate: '2099-01-01T00:00:00.000Z',
      createdAt: '2026-01-01T00:00:00.000Z',
      issuedAt: '2026-01-01T00:00:00.000Z',
      refunds: [],
    });
    // A database holding such amounts, written directly: no request can create them.
    const file = join(mkdtempSync(join(tmpdir(), 'einvoice-money-')), 'state.sqlite');
    const invoices = [stored('1', 'UNPAID'), stored('2', 'UNPAID'), stored('3', 'PAID')] as unknown as StoredInvoice[];
    (await openStore({ file, create: () => ({ ...state, invoices }) })).close();
    const old = await startSandbox({ stateFile: file });
    try {
      const statistics = (await call(old, 'GET', '/invoice-api/invoices/statistics')).body;
      expect(statistics.allInvoices).toEqual({ totalCount: 3, totalAmount: Number.MAX_VALUE });
      expect(statistics.unpaidInvoices.totalAmount).toBe(Number.MAX_VALUE);
      expect(statistics.paidInvoices.totalAmount).toBe(1e308);
    } finally {
      await old.close();
    }
  });
});
