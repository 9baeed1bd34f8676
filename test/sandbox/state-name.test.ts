import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxStateHeader } from '../../src/schemas/sandbox-admin.js';
import { tempHome } from '../helpers/home.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, unpaidInvoice, type TestSandbox } from '../helpers/sandbox.js';

// A sandbox's state has a name, new after a reset, said with each create and refund answer: invoice numbers start
// again in a new state, and a client keeps the numbers of two states apart by it.

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** Creates an invoice and returns the state its answer names. */
async function createdIn(url: string, token: string): Promise<string | null> {
  const response = await fetch(`${url}/invoice-api/invoices/single`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(unpaidInvoice()),
  });
  expect(response.status).toBe(201);
  return response.headers.get(sandboxStateHeader);
}

describe("a sandbox's state name", () => {
  it('is said with each create and refund, and changes with a reset', async () => {
    const first = await createdIn(sandbox.url, sandbox.token);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(await createdIn(sandbox.url, sandbox.token)).toBe(first);
    const { invoiceNumber, orderReferenceNumber } = await sandbox.api.createPaidInvoice();
    const refund = await fetch(`${sandbox.url}/invoice-api/invoices/${invoiceNumber}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sandbox.token}` },
      body: JSON.stringify({ amount: 1234.5, reason: 'Returned', orderReferenceNumber }),
    });
    expect(refund.headers.get(sandboxStateHeader)).toBe(first);
    await sandbox.api.reset(false);
    const second = await createdIn(sandbox.url, sandbox.token);
    expect(second).not.toBe(first);
  });

  it('differs between two sandboxes', async () => {
    const other = await startTestSandbox();
    try {
      expect(await createdIn(other.url, other.token)).not.toBe(await createdIn(sandbox.url, sandbox.token));
    } finally {
      await other.close();
    }
  });

  it('is given to a state file of an earlier einvoice, which had none', async () => {
    const home = tempHome();
    const file = join(home, 'state.sqlite');
    const env = { EINVOICE_SANDBOX_STATE: file };
    expect((await runInProcess(['stats'], { home, env })).code).toBe(0);
    const earlier = new DatabaseSync(file);
    earlier.exec("DELETE FROM counters WHERE name = 'stateId'; PRAGMA user_version = 1");
    earlier.close();
    const exported = await runInProcess(['sandbox', 'export'], { home, env });
    expect(exported.code, exported.stderr).toBe(0);
    expect((JSON.parse(exported.stdout) as { stateId?: string }).stateId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the ledger and a sandbox that was reset', () => {
  it('keeps the invoices of each state apart: a refund of the new 1000009 leaves the old one as it was', async () => {
    const home = tempHome();
    const create = [
      ...['create', 'single', '--customer-name', 'Amr', '--customer-mobile', '+201012345678', '--amount', '10'],
      ...['--sending-date', 'today', '--release-date', 'today', '--expiry-date', '+30d', '--note', 'x', '--yes'],
    ];
    const made = async (reference: string) => {
      const result = await runInProcess([...create, '--business-reference', reference, '--json'], { home });
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { invoiceNumber: string }).invoiceNumber;
    };
    const old = await made('OLD');
    expect((await runInProcess(['sandbox', 'reset'], { home })).code).toBe(0);
    const renewed = await made('NEW');
    expect(renewed).toBe(old);
    const paid = await runInProcess(['sandbox', 'pay', renewed], { home });
    expect(paid.code, paid.stderr).toBe(0);
    const refund = [renewed, '--amount', '10', '--reason', 'Returned', '--order-ref', paid.stdout.trim(), '--yes'];
    expect((await runInProcess(['refund', ...refund], { home })).code).toBe(0);
    const listed = await runInProcess(['invoices', 'list', '--json'], { home });
    const invoices = JSON.parse(listed.stdout) as Array<{ businessReference: string; status: string }>;
    expect(invoices.map(({ businessReference, status }) => [businessReference, status])).toEqual([
      ['NEW', 'refunded'],
      ['OLD', 'created'],
    ]);
  });
});
