import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workbook } from '@cj-tech-master/excelts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/home.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { records, writeNdjson } from '../bulk/helpers.js';

// The merchant's ledger (einvoice invoices): what einvoice sent from this machine, recorded as it happens, listed,
// shown, exported and imported from the journals of other machines.

interface Listed {
  invoiceNumber: string | null;
  status: string;
  businessReference: string | null;
  amount: string | null;
  amountMinor: number | null;
  customer: { name: string | null };
  source: { via: string; file: string | null; line: number | null; run: string | null };
  nextStep?: string;
}

/** The ledger's invoices as `invoices list --json` prints them. */
async function listed(home: string, args: string[] = []): Promise<Listed[]> {
  const result = await runInProcess(['invoices', 'list', '--json', ...args], { home });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Listed[];
}

/** Sets the share of requests whose answer the sandbox drops after committing them. */
async function setFaults(url: string, dropAfterCommit: number): Promise<void> {
  const response = await fetch(`${url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ faults: { 'drop-after-commit': dropAfterCommit } }),
  });
  expect(response.ok).toBe(true);
}

/** The built-in sandbox's ledger below `home`. */
const sandboxLedger = (home: string) => join(home, '.local', 'state', 'einvoice', 'ledger', 'sandbox.sqlite');

const arabicName = 'عمرو حسن';
const withoutReference = [
  ...['create', 'single', '--customer-name', arabicName, '--customer-mobile', '+201012345678', '--amount', '150.75'],
  ...['--sending-date', 'today', '--release-date', 'today', '--expiry-date', '+30d', '--note', 'Order 1', '--yes'],
];
/** One invoice with the businessReference `reference`. */
const oneInvoice = (reference: string) => [...withoutReference, '--business-reference', reference];

describe('the ledger of the built-in sandbox: a single create, a bulk run of 20 and one refund', () => {
  const home = tempHome();
  let single: string;
  let refunded: string;

  beforeAll(async () => {
    const created = await runInProcess([...oneInvoice('ONE-1'), '--json'], { home });
    expect(created.code, created.stderr).toBe(0);
    single = (JSON.parse(created.stdout) as { invoiceNumber: string }).invoiceNumber;
    writeNdjson(home, 'twenty.ndjson', records(20, 5));
    const bulk = await runInProcess(['create', 'single', '--file', 'twenty.ndjson', '--yes'], { home });
    expect(bulk.code, bulk.stderr).toBe(0);
    const paid = await runInProcess(['sandbox', 'pay', single, '--json'], { home });
    expect(paid.code, paid.stderr).toBe(0);
    const { orderReferenceNumber } = JSON.parse(paid.stdout) as { orderReferenceNumber: string };
    const refund = await runInProcess(
      ['refund', single, '--amount', '150.75', '--reason', 'Returned', '--order-ref', orderReferenceNumber, '--yes'],
      { home },
    );
    expect(refund.code, refund.stderr).toBe(0);
    refunded = single;
  });

  it('lists the 21 invoices with their numbers, references and amounts, newest first, the refunded one marked', async () => {
    const invoices = await listed(home);
    expect(invoices).toHaveLength(21);
    expect(invoices.every((invoice) => /^\d+$/.test(invoice.invoiceNumber ?? ''))).toBe(true);
    expect(new Set(invoices.map((invoice) => invoice.invoiceNumber)).size).toBe(21);
    const first = invoices.at(-1) as Listed;
    expect(first).toMatchObject({
      invoiceNumber: refunded,
      status: 'refunded',
      businessReference: 'ONE-1',
      amount: '150.75',
      amountMinor: 15075,
      customer: { name: arabicName },
      source: { via: 'flags' },
    });
    const bulk = invoices.slice(0, 20);
    expect(bulk.every((invoice) => invoice.status === 'created' && invoice.source.via === 'bulk')).toBe(true);
    expect(bulk.filter((invoice) => invoice.businessReference === null)).toHaveLength(4);
    const fifth = bulk.find((invoice) => invoice.source.line === 3);
    expect(fifth).toMatchObject({ businessReference: 'REF-3', amount: '103.00', amountMinor: 10300 });
    expect(await listed(home, ['--status', 'refunded'])).toHaveLength(1);
    expect(await listed(home, ['--ref', 'REF-7'])).toMatchObject([{ businessReference: 'REF-7', source: { line: 7 } }]);
  });

  it('shows an invoice as sent, with its refund and where it came from', async () => {
    const bulkOne = (await listed(home, ['--ref', 'REF-2']))[0] as Listed;
    const shown = await runInProcess(['invoices', 'show', bulkOne.invoiceNumber as string], { home });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('twenty.ndjson:2');
    expect(shown.stdout).toContain('"note": "Order 2"');
    const withRefund = await runInProcess(['invoices', 'show', 'ONE-1', '--json'], { home });
    const [invoice] = JSON.parse(withRefund.stdout) as Array<Listed & { refunds: Array<Record<string, unknown>> }>;
    expect(invoice?.refunds).toMatchObject([{ status: 'refunded', amount: '150.75', reason: 'Returned' }]);
  });

  it('exports CSV as Excel opens it: a byte order mark, a row per invoice, the Arabic name byte for byte', async () => {
    const result = await runInProcess(['invoices', 'export', '--format', 'csv', '--output', 'all.csv'], { home });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    const bytes = readFileSync(join(home, 'all.csv'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(statSync(join(home, 'all.csv')).mode & 0o777).toBe(0o600);
    const lines = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(lines).toHaveLength(22);
    expect(bytes.includes(Buffer.from(`,${arabicName},`, 'utf8'))).toBe(true);
    const header = (lines[0] as string).split(',');
    const last = (lines[21] as string).split(',');
    expect(last[header.indexOf('refundStatus')]).toBe('refunded');
    expect(last[header.indexOf('refundAmount')]).toBe('150.75');
  });

  it("shows when an invoice and its refund were sent by the merchant's clock, and --json the instant", async () => {
    const env = { TZ: 'Africa/Cairo' };
    const json = await runInProcess(['invoices', 'show', 'ONE-1', '--json'], { home, env });
    const [invoice] = JSON.parse(json.stdout) as Array<{ sentAt: string; refunds: Array<{ sentAt: string }> }>;
    const cairo = (instant: string) => {
      const wall = new Date(new Date(instant).getTime() + 2 * 3600_000).toISOString();
      return `${wall.slice(0, 10)} ${wall.slice(11, 19)} Africa/Cairo`;
    };
    const shown = await runInProcess(['invoices', 'show', 'ONE-1'], { home, env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^Sent +${cairo(invoice?.sentAt ?? '')}$`, 'm'));
    expect(shown.stdout).toContain(`, ${cairo(invoice?.refunds[0]?.sentAt ?? '')}, reason: Returned`);
  });

  it('exports a workbook: a row per invoice, amounts as numbers with two decimals, dates as dates, Arabic intact', async () => {
    const result = await runInProcess(['invoices', 'export', '--format', 'xlsx', '--output', 'all.xlsx'], { home });
    expect(result.code, result.stderr).toBe(0);
    expect(statSync(join(home, 'all.xlsx')).mode & 0o777).toBe(0o600);
    const workbook = new Workbook();
    await workbook.xlsx.readFile(join(home, 'all.xlsx'));
    const sheet = workbook.getWorksheet(1);
    const rows = sheet?.getSheetValues().slice(1) as unknown[][];
    expect(rows).toHaveLength(22);
    const header = rows[0] as unknown[];
    // A column of times names their zone: `sentAt (Africa/Cairo)`.
    const column = (name: string) => header.findIndex((cell) => cell === name || String(cell).startsWith(`${name} (`));
    const last = rows[21] as unknown[];
    expect(last[column('customerName')]).toBe(arabicName);
    // Arabic text is right-aligned and read right to left, as Excel shows it typed into a cell; the rest is not.
    expect(sheet?.getRow(22).getCell(column('customerName')).alignment).toMatchObject({
      horizontal: 'right',
      readingOrder: 'rtl',
    });
    expect(sheet?.getRow(22).getCell(column('invoiceNumber')).alignment?.readingOrder).toBeUndefined();
    expect(last[column('amount')]).toBe(150.75);
    expect(last[column('refundAmount')]).toBe(150.75);
    expect(last[column('sentAt')]).toBeInstanceOf(Date);
    expect(last[column('sendingDate')]).toBeInstanceOf(Date);
    expect(last[column('expiryDate')]).toBeInstanceOf(Date);
    expect(sheet?.getRow(22).getCell(column('amount')).numFmt).toBe('#,##0.00');
    expect(sheet?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });

  it('refuses to print a workbook to a terminal, and pipes one whole', async () => {
    const shown = await runInProcess(['invoices', 'export', '--format', 'xlsx'], { home, stdoutIsTTY: true });
    expect(shown.code).toBe(2);
    expect(shown.stderr).toContain('--output invoices.xlsx');
    const piped = await runInProcess(['invoices', 'export', '--format', 'xlsx'], { home });
    expect(piped.code, piped.stderr).toBe(0);
    const workbook = new Workbook();
    await workbook.xlsx.load(piped.stdoutBytes);
    expect(workbook.getWorksheet(1)?.rowCount).toBe(22);
  });

  it("keeps the ledger the user's alone (0600)", () => {
    expect(statSync(sandboxLedger(home)).mode & 0o777).toBe(0o600);
  });
});

describe('the ledger and a served sandbox', () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  it('imports a journal of another machine once, however often it is imported', async () => {
    const elsewhere = homeFor(sandbox);
    writeNdjson(elsewhere, 'batch.ndjson', records(6, 3));
    const run = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--yes', '--journal', 'j.ndjson'], {
      home: elsewhere,
    });
    expect(run.code, run.stderr).toBe(0);
    const here = homeFor(sandbox);
    for (const time of [1, 2]) {
      const imported = await runInProcess(['invoices', 'import', join(elsewhere, 'j.ndjson')], { home: here });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toContain(`6 invoices sent to local`);
      expect(imported.stderr).toContain(time === 1 ? '6 new in the ledger' : '0 new in the ledger');
    }
    const invoices = await listed(here);
    expect(invoices).toHaveLength(6);
    expect(new Set(invoices.map((invoice) => invoice.source.via))).toEqual(new Set(['import']));
    // The machine that ran it recorded the same entries: its own import adds nothing either.
    const again = await runInProcess(['invoices', 'import', 'j.ndjson'], { home: elsewhere });
    expect(again.stderr).toContain('0 new in the ledger');
    expect(await listed(elsewhere)).toHaveLength(6);
  });

  it('lists a create whose answer was lost after the service committed it as uncertain, with the safe next step', async () => {
    const home = homeFor(sandbox);
    await setFaults(sandbox.url, 1);
    try {
      const result = await runInProcess(withoutReference, { home });
      expect(result.code, result.stderr).toBe(8);
    } finally {
      await setFaults(sandbox.url, 0);
    }
    const [invoice] = await listed(home);
    expect(invoice).toMatchObject({ status: 'uncertain', invoiceNumber: null, amount: '150.75' });
    expect(invoice?.nextStep).toContain('look it up in the merchant dashboard');
  });

  it('shows refunds whose answer was lost as refund-uncertain, then what the merchant decided', async () => {
    const home = homeFor(sandbox);
    writeNdjson(
      home,
      'paid.ndjson',
      records(2).map((record, index) => ({ ...record, businessReference: `PAID-${index}` })),
    );
    const created = await runInProcess(['create', 'single', '--file', 'paid.ndjson', '--yes'], { home });
    expect(created.code, created.stderr).toBe(0);
    const invoices = await listed(home);
    const rows = ['invoiceNumber,amount,reason,orderReferenceNumber'];
    for (const invoice of invoices) {
      const { orderReferenceNumber } = await sandbox.api.pay(invoice.invoiceNumber as string);
      rows.push(`${invoice.invoiceNumber},10,Returned,${orderReferenceNumber}`);
    }
    writeFileSync(join(home, 'refunds.csv'), `${rows.join('\n')}\n`);
    await setFaults(sandbox.url, 1);
    try {
      const lost = await runInProcess(['refund', '--file', 'refunds.csv', '--yes'], { home });
      expect(lost.code, lost.stderr).toBe(6);
    } finally {
      await setFaults(sandbox.url, 0);
    }
    const uncertain = await listed(home, ['--status', 'refund-uncertain']);
    expect(uncertain).toHaveLength(2);
    expect(uncertain[0]?.nextStep).toContain('--mark-refunded');
    const [done, notDone] = invoices.map((invoice) => invoice.invoiceNumber as string) as [string, string];
    const settled = await runInProcess(
      ['refund', '--file', 'refunds.csv', '--yes', '--mark-refunded', done, '--mark-not-refunded', notDone],
      { home },
    );
    // The second was made too: its resend, which the merchant's word allowed, is refused by the service.
    expect(settled.code, settled.stderr).toBe(6);
    expect(await listed(home, ['--status', 'refunded'])).toMatchObject([{ invoiceNumber: done }]);
    const shown = await runInProcess(['invoices', 'show', notDone, '--json'], { home });
    const [invoice] = JSON.parse(shown.stdout) as Array<{ status: string; refunds: Array<Record<string, unknown>> }>;
    expect(invoice?.refunds).toMatchObject([
      {
        status: 'refused',
        decided: 'not refunded, as the merchant said',
        error: expect.stringContaining('is REFUNDED') as unknown,
      },
    ]);
  });

  it("imports a journal of refunds on another machine as refunds, the merchant's word on an uncertain one kept", async () => {
    const home = homeFor(sandbox);
    writeNdjson(
      home,
      'paid.ndjson',
      records(2).map((record, index) => ({ ...record, businessReference: `MOVED-PAID-${index}` })),
    );
    const created = await runInProcess(
      ['create', 'single', '--file', 'paid.ndjson', '--yes', '--journal', 'c.ndjson'],
      {
        home,
      },
    );
    expect(created.code, created.stderr).toBe(0);
    const rows = ['invoiceNumber,amount,reason,orderReferenceNumber'];
    for (const invoice of await listed(home)) {
      const { orderReferenceNumber } = await sandbox.api.pay(invoice.invoiceNumber as string);
      rows.push(`${invoice.invoiceNumber},10,Returned,${orderReferenceNumber}`);
    }
    writeFileSync(join(home, 'refunds.csv'), `${rows.join('\n')}\n`);
    const refund = ['refund', '--file', 'refunds.csv', '--yes', '--journal', 'r.ndjson'];
    await setFaults(sandbox.url, 1);
    try {
      expect((await runInProcess(refund, { home })).code).toBe(6);
    } finally {
      await setFaults(sandbox.url, 0);
    }
    // The merchant's word is journaled at once, though the run itself is refused (its pinned count differs).
    const [done, notDone] = (await listed(home)).map((invoice) => invoice.invoiceNumber as string) as [string, string];
    const word = ['--mark-refunded', done, '--mark-not-refunded', notDone, '--expect-count', '5'];
    expect((await runInProcess([...refund, ...word], { home })).code).toBe(2);

    const elsewhere = homeFor(sandbox);
    const imported = await runInProcess(['invoices', 'import', join(home, 'c.ndjson'), join(home, 'r.ndjson')], {
      home: elsewhere,
    });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('2 invoices sent to local');
    expect(imported.stderr).toContain('2 refunds sent to local');
    const refundsOf = async (number: string) => {
      const shown = await runInProcess(['invoices', 'show', number, '--json'], { home: elsewhere });
      return (JSON.parse(shown.stdout) as Array<{ refunds: Array<Record<string, unknown>> }>)[0]?.refunds;
    };
    expect(await refundsOf(done)).toMatchObject([{ status: 'refunded' }]);
    expect(await refundsOf(notDone)).toMatchObject([
      { status: 'not-refunded', decided: 'not refunded, as the merchant said' },
    ]);
  });

  it('writes no ledger file with --no-ledger, nor with ledger: false in the profile', async () => {
    const home = homeFor(sandbox);
    const result = await runInProcess([...oneInvoice('NO-1'), '--no-ledger'], { home });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(home, '.local', 'state', 'einvoice', 'ledger'))).toBe(false);
    const off = homeFor(sandbox, {
      environments: { local: { baseUrl: sandbox.url, token: sandbox.token, ledger: false } },
    });
    const offRun = await runInProcess(oneInvoice('NO-2'), { home: off });
    expect(offRun.code, offRun.stderr).toBe(0);
    expect(existsSync(join(off, '.local', 'state', 'einvoice', 'ledger'))).toBe(false);
  });

  it('sends as ever when the ledger cannot be written, and says so once', async () => {
    const home = homeFor(sandbox);
    // A folder where the ledger's file should be: it cannot be opened.
    mkdirSync(join(home, '.local', 'state', 'einvoice', 'ledger', 'local.sqlite'), { recursive: true });
    writeNdjson(home, 'three.ndjson', records(3));
    const result = await runInProcess(['create', 'single', '--file', 'three.ndjson', '--yes'], { home });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.match(/could not be written/g)).toHaveLength(1);
    expect(result.stderr).toContain('einvoice invoices import');
    expect((await sandbox.api.invoices()).filter((invoice) => invoice.request)).not.toHaveLength(0);
  });

  it('forgets what was sent before a day, and nothing after it', async () => {
    const home = homeFor(sandbox);
    expect((await runInProcess(oneInvoice('OLD-1'), { home })).code).toBe(0);
    const kept = await runInProcess(['invoices', 'forget', '--before', '2000-01-01'], { home });
    expect(kept.stderr).toContain('Removed 0 invoices');
    expect(await listed(home)).toHaveLength(1);
    const gone = await runInProcess(['invoices', 'forget', '--before', '2999-01-01'], { home });
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stderr).toContain('Removed 1 invoices');
    expect(await listed(home)).toHaveLength(0);
  });

  it('warns of a record without a businessReference that another journal sent, and refuses it under --strict', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'plain.ndjson', records(2, 2));
    const first = await runInProcess(['create', 'single', '--file', 'plain.ndjson', '--yes', '--journal', 'a.ndjson'], {
      home,
    });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('the ledger holds');
    const rerun = await runInProcess(['create', 'single', '--file', 'plain.ndjson', '--yes', '--journal', 'a.ndjson'], {
      home,
    });
    expect(rerun.stderr).not.toContain('the ledger holds');
    const other = await runInProcess(
      ['create', 'single', '--file', 'plain.ndjson', '--dry-run', '--journal', 'b.ndjson'],
      { home },
    );
    expect(other.stderr).toMatch(
      /record 2 \(line 2\): businessReference: is missing, and the ledger holds invoice \d+ with the same fields/,
    );
    const strict = await runInProcess(
      ['create', 'single', '--file', 'plain.ndjson', '--yes', '--strict', '--journal', 'c.ndjson'],
      { home },
    );
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/the ledger holds invoice \d+ with the same fields.*\(--strict\)/);
  });
});
