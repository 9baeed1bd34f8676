import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { record, writeNdjson } from '../bulk/helpers.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

// Refunds checked against the merchant's ledger before anything is sent, in a dry run and a real one, one or a file:
// more than the invoice holds, an invoice already refunded; warnings everywhere a run tells them, held back under
// --strict; an invoice the ledger does not hold only counted.

let sandbox: TestSandbox;
let home: string;
/** Created and paid from this machine; B refunded whole from here. C created elsewhere (the dashboard). */
const invoices = { a: '', b: '', c: '' };
const orders = { a: '', b: '', c: '' };

/** Today in the zone the CLI reads days in here (the system's: no profile zone, no TZ in its environment). */
const today = new Date().toLocaleDateString('en-CA');

beforeAll(async () => {
  sandbox = await startTestSandbox();
  home = homeFor(sandbox);
  const dated = { sendingDate: 'today', releaseDate: 'today', expiryDate: '+30d', amount: 99.5 };
  writeNdjson(home, 'two.ndjson', [
    record(1, { ...dated, businessReference: 'RA' }),
    record(2, { ...dated, businessReference: 'RB' }),
  ]);
  const created = await runInProcess(['create', 'single', '--file', 'two.ndjson', '--yes', '--json'], { home });
  expect(created.code, created.stderr).toBe(0);
  const numbers = (JSON.parse(created.stdout) as { records: Array<{ invoiceNumber: string }> }).records;
  [invoices.a, invoices.b] = numbers.map((one) => one.invoiceNumber) as [string, string];
  orders.a = (await sandbox.api.pay(invoices.a)).orderReferenceNumber;
  orders.b = (await sandbox.api.pay(invoices.b)).orderReferenceNumber;
  const refunded = await runInProcess(
    ['refund', invoices.b, '--amount', '99.50', '--reason', 'Returned', '--order-ref', orders.b, '--yes'],
    { home },
  );
  expect(refunded.code, refunded.stderr).toBe(0);
  ({ invoiceNumber: invoices.c, orderReferenceNumber: orders.c } = await sandbox.api.createPaidInvoice());
  writeFileSync(
    join(home, 'refunds.csv'),
    [
      'invoiceNumber,amount,reason,orderReferenceNumber',
      `${invoices.a},995.00,Typo,${orders.a}`,
      `${invoices.b},99.50,Again,${orders.b}`,
      `${invoices.c},10,Partial,${orders.c}`,
    ].join('\n'),
  );
});
afterAll(() => sandbox.close());

const refundsMade = async () =>
  (await sandbox.api.invoices()).reduce((count, invoice) => count + invoice.refunds.length, 0);

describe('a refund file checked against the ledger', () => {
  it('the dry run names 99.50 and the earlier refund, counts the invoice sent elsewhere, and tells CI', async () => {
    const summaryFile = join(home, 'summary.md');
    writeFileSync(summaryFile, '');
    const result = await runInProcess(['refund', '--file', 'refunds.csv', '--dry-run', '--report', 'dry.xml'], {
      home,
      env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: home, GITHUB_STEP_SUMMARY: summaryFile },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `row 2, column amount (B): asks 995.00, more than the ledger shows invoice ${invoices.a} was invoiced: 99.50`,
    );
    expect(result.stderr).toContain(
      `row 3, column invoiceNumber (A): the ledger shows invoice ${invoices.b} refunded on ${today} (99.50): this would refund it again`,
    );
    expect(result.stderr).toContain('1 refund is of an invoice this machine did not send');
    expect(result.stderr).toMatch(/^::warning file=refunds\.csv,line=2,.*asks 995\.00/m);
    expect(result.stderr).toMatch(/^::warning file=refunds\.csv,line=3,.*refunded on/m);
    expect(readFileSync(summaryFile, 'utf8')).toContain('asks 995.00');
    expect(readFileSync(join(home, 'dry.xml'), 'utf8')).toContain(
      `warning: invoiceNumber: the ledger shows invoice ${invoices.b} refunded on ${today}`,
    );
  });

  it('with --strict nothing of the file is sent', async () => {
    const before = await refundsMade();
    const result = await runInProcess(['refund', '--file', 'refunds.csv', '--yes', '--strict'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nothing was sent');
    expect(result.stderr).toContain(
      `row 2, column amount (B): asks 995.00, more than the ledger shows invoice ${invoices.a} was invoiced: 99.50 (--strict)`,
    );
    expect(await refundsMade()).toBe(before);
  });
});

describe("the merchant's word on a refund file", () => {
  it('refuses an invoice marked both refunded and not refunded in one command, naming it (exit 2), sending nothing', async () => {
    const before = await refundsMade();
    const result = await runInProcess(
      ['refund', '--file', 'refunds.csv', '--yes', '--mark-refunded', invoices.a, '--mark-not-refunded', invoices.a],
      { home },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `Invoice ${invoices.a}: both --mark-refunded and --mark-not-refunded were given for it; nothing was sent.`,
    );
    expect(await refundsMade()).toBe(before);
  });
});

describe('one refund checked against the ledger', () => {
  it('warns of a second refund of a refunded invoice, and refuses it under --strict, sending nothing', async () => {
    const again = [invoices.b, '--amount', '99.50', '--reason', 'Again', '--order-ref', orders.b];
    const dry = await runInProcess(['refund', ...again, '--dry-run'], { home });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(`the ledger shows invoice ${invoices.b} refunded on ${today} (99.50)`);
    const before = await refundsMade();
    const strict = await runInProcess(['refund', ...again, '--yes', '--strict'], { home });
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain(
      `The ledger warns of the refund of invoice ${invoices.b}; nothing was sent (--strict).`,
    );
    expect(await refundsMade()).toBe(before);
  });

  it('sends a refund of an invoice the ledger does not hold as it would any other', async () => {
    const result = await runInProcess(
      ['refund', invoices.c, '--amount', '10', '--reason', 'Partial', '--order-ref', orders.c, '--yes', '--strict'],
      { home },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('ledger');
  });
});
