import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workbook } from '@cj-tech-master/excelts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/home.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';
import { newToken } from '../helpers/secrets.js';
import { writeHandMadeWorkbook, type HandCell } from '../helpers/workbook.js';
import { templateColumns } from '../../src/commands/template/run.js';
import type { ShownReconcileRow } from '../../src/ledger/reconcile.js';

// `einvoice invoices reconcile ORDERS`: a merchant's orders matched against the ledger of what was sent. The invoices
// are sent through the CLI to the built-in sandbox, so the ledger fills as a merchant's does; every reconcile runs
// with the environment's base address at a server that fails the test if anything calls it.

type Row = ShownReconcileRow;

interface Reconciled {
  compared: Record<string, unknown>;
  summary: Record<string, { count: number; amount: string }>;
  rows: Row[];
}

/** The orders template's columns: customer.name, customer.mobile, amount, the dates, businessReference, note. */
const columns = templateColumns.orders;

/** An invoice's cells, as a merchant's sheet writes them. */
const cells = (reference: string, amount: string, index: number) => [
  `Customer ${index}`,
  '+201001234567',
  amount,
  'today',
  'today',
  '+30d',
  reference,
  `Order ${index}`,
];

const csv = (rows: string[][]) => `${[columns, ...rows].map((row) => row.join(',')).join('\n')}\n`;

/** RC-0..RC-16 as ordered: RC-5 off by 1.00, RC-7 twice, RC-12 written with Arabic-Indic digits, and a new RC-99. */
function orderRows(): string[][] {
  const rows: string[][] = [];
  for (let index = 0; index <= 16; index++) {
    const reference = index === 12 ? 'RC-١٢' : `RC-${index}`;
    const amount = `${100 + index + (index === 5 ? 1 : 0)}.00`;
    rows.push(cells(reference, amount, index));
    if (index === 7) rows.push(cells(reference, amount, index));
  }
  rows.push(cells('RC-99', '199.00', 99));
  return rows;
}

const home = tempHome();
const token = newToken('reconcile');
let service: TestServer;

/** `einvoice invoices reconcile ...args`, the environment's base address at the server no request may reach. */
function reconcile(args: string[], env: Record<string, string> = {}, input?: string) {
  return runInProcess(['invoices', 'reconcile', ...args], {
    home,
    env: { EINVOICE_BASE_URL: service.url, EINVOICE_TOKEN: token, ...env },
    ...(input === undefined ? {} : { input }),
  });
}

async function reconciled(args: string[], env: Record<string, string> = {}): Promise<Reconciled> {
  const result = await reconcile([...args, '--json'], env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Reconciled;
}

/** Each reference's classes, in the rows' order. */
function classesOf(result: Reconciled): Record<string, string[]> {
  const classes: Record<string, string[]> = {};
  for (const row of result.rows) (classes[row.businessReference ?? '-'] ??= []).push(row.class);
  return classes;
}

beforeAll(async () => {
  service = await startTestServer();
  writeFileSync(
    join(home, 'invoices.csv'),
    csv(Array.from({ length: 20 }, (_, index) => cells(`RC-${index}`, `${100 + index}.00`, index))),
  );
  const sent = await runInProcess(['create', 'single', '--file', 'invoices.csv', '--yes'], { home });
  expect(sent.code, sent.stderr).toBe(0);
  const listed = await runInProcess(['invoices', 'list', '--ref', 'RC-3', '--json'], { home });
  const [{ invoiceNumber }] = JSON.parse(listed.stdout) as [{ invoiceNumber: string }];
  const paid = await runInProcess(['sandbox', 'pay', invoiceNumber, '--json'], { home });
  const { orderReferenceNumber } = JSON.parse(paid.stdout) as { orderReferenceNumber: string };
  const refund = [
    'refund',
    invoiceNumber,
    '--amount',
    '103',
    '--reason',
    'Returned',
    '--order-ref',
    orderReferenceNumber,
  ];
  const refunded = await runInProcess([...refund, '--yes'], { home });
  expect(refunded.code, refunded.stderr).toBe(0);
  writeFileSync(join(home, 'orders.csv'), csv(orderRows()));
});

afterEach(() => {
  // No reconcile may reach the service: it reads this machine's files only.
  expect(service.requests).toEqual([]);
});

afterAll(() => service.close());

describe('einvoice invoices reconcile: 20 invoices sent, RC-3 refunded, against the orders', () => {
  it('puts each order and invoice in its class, exit 0, with each class counted and totalled exactly', async () => {
    const result = await reconciled(['orders.csv']);
    const classes = classesOf(result);
    expect(classes['RC-5']).toEqual(['amount-differs']);
    expect(classes['RC-99']).toEqual(['not-invoiced']);
    expect(classes['RC-7']).toEqual(['duplicate-in-orders', 'duplicate-in-orders']);
    for (const reference of ['RC-17', 'RC-18', 'RC-19']) expect(classes[reference]).toEqual(['not-in-orders']);
    expect(classes['RC-١٢']).toEqual(['matched']);
    expect(classes['RC-0']).toEqual(['matched']);
    expect(classes['RC-3']).toEqual(['refunded']);
    const twelve = result.rows.find((row) => row.businessReference === 'RC-١٢');
    expect(twelve).toMatchObject({ row: 15, ledgerReference: 'RC-12', ordersAmount: '112.00', ledgerAmount: '112.00' });
    expect(result.rows.find((row) => row.businessReference === 'RC-5')).toMatchObject({
      row: 7,
      ordersAmount: '106.00',
      ledgerAmount: '105.00',
      difference: '-1.00',
    });
    expect(result.rows.find((row) => row.businessReference === 'RC-3')).toMatchObject({ refundedAmount: '103.00' });
    expect(result.summary).toEqual({
      matched: { count: 14, amount: '1521.00' },
      'amount-differs': { count: 1, amount: '-1.00' },
      'not-invoiced': { count: 1, amount: '199.00' },
      'not-in-orders': { count: 3, amount: '354.00' },
      'duplicate-in-orders': { count: 2, amount: '214.00' },
      'duplicate-in-ledger': { count: 0, amount: '0.00' },
      uncertain: { count: 0, amount: '0.00' },
      refunded: { count: 1, amount: '103.00' },
    });
    expect(result.compared).toMatchObject({
      orders: 'orders.csv',
      orderCount: 19,
      environment: 'sandbox',
      invoiceCount: 20,
    });
    // Rows in the orders' order, then the invoices without an order.
    expect(result.rows.map((row) => row.row)).toEqual([
      ...Array.from({ length: 19 }, (_, index) => index + 2),
      null,
      null,
      null,
    ]);
  });

  it('--fail-on amount-differs exits 11 once every output is written; an unknown class is refused before reading', async () => {
    const failed = await reconcile(['orders.csv', '--fail-on', 'duplicate-in-ledger,amount-differs', '--json']);
    expect(failed.code).toBe(11);
    expect(failed.stderr).toContain('--fail-on: amount-differs has 1 row.');
    expect((JSON.parse(failed.stdout) as Reconciled).rows).toHaveLength(22);
    const clean = await reconcile(['orders.csv', '--fail-on', 'duplicate-in-ledger', '--fail-on', 'uncertain']);
    expect(clean.code, clean.stderr).toBe(0);
    const unknown = await reconcile(['orders.csv', '--fail-on', 'amount-differ,missing']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('amount-differ is not a class; did you mean amount-differs?');
    expect(unknown.stderr).toContain('The classes: matched, amount-differs, not-invoiced, not-in-orders');
    expect(unknown.stdout).toBe('');
  });

  it('--emit-missing m.csv holds RC-99 alone, the orders own fields, and create single --file m.csv --dry-run passes', async () => {
    const result = await reconcile(['orders.csv', '--emit-missing', 'm.csv']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'Wrote 1 order without an invoice to m.csv: einvoice create single --file m.csv sends it.',
    );
    const written = readFileSync(join(home, 'm.csv'), 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(written).toHaveLength(2);
    const [header = '', row = ''] = written.map((line) => line.split(','));
    expect(row[header.indexOf('businessReference')]).toBe('RC-99');
    expect(row[header.indexOf('customer.name')]).toBe('Customer 99');
    expect(row[header.indexOf('amount')]).toBe('199');
    // A mobile is text that begins with +: marked as text, and read back as the number it is (the dry run passes).
    expect(row[header.indexOf('customer.mobile')]).toBe("'+201001234567");
    expect(statSync(join(home, 'm.csv')).mode & 0o777).toBe(0o600);
    const dryRun = await runInProcess(['create', 'single', '--file', 'm.csv', '--dry-run'], { home });
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stderr).toMatch(/valid, would be sent +1/);

    // A workbook for .xlsx: every cell text, as the order held it, which create reads back as it was.
    const workbook = await reconcile(['orders.csv', '--emit-missing', 'm.xlsx']);
    expect(workbook.code, workbook.stderr).toBe(0);
    expect(statSync(join(home, 'm.xlsx')).mode & 0o777).toBe(0o600);
    const fromWorkbook = await runInProcess(['create', 'single', '--file', 'm.xlsx', '--dry-run', '--json'], { home });
    expect(fromWorkbook.code, fromWorkbook.stderr).toBe(0);
    const report = JSON.parse(fromWorkbook.stdout) as { records: Array<{ businessReference: string; status: string }> };
    expect(report.records).toEqual([expect.objectContaining({ businessReference: 'RC-99', status: 'valid' })]);
  });

  it('the same orders as an .xlsx workbook give the same classes', async () => {
    const text = (value: string): HandCell => ({ inline: value });
    await writeHandMadeWorkbook(join(home, 'orders.xlsx'), {
      sheets: [
        {
          name: 'Orders',
          rows: [
            columns.map((name) => ({ shared: name })),
            ...orderRows().map((row) =>
              row.map((value, index) => (columns[index] === 'amount' ? { number: value } : text(value))),
            ),
          ],
        },
      ],
    });
    const fromSheet = await reconciled(['orders.csv']);
    const fromWorkbook = await reconciled(['orders.xlsx']);
    expect(classesOf(fromWorkbook)).toEqual(classesOf(fromSheet));
    expect(fromWorkbook.summary).toEqual(fromSheet.summary);
  });

  it('on a terminal: the totals, then the rows to look at as a table, Arabic as written; a pipe gets every row', async () => {
    writeFileSync(join(home, 'arabic.csv'), csv([...orderRows(), cells('طلب-٧', '70.00', 70)]));
    const env = { EINVOICE_BASE_URL: service.url, EINVOICE_TOKEN: token, NO_COLOR: '1' };
    const result = await runInProcess(['invoices', 'reconcile', 'arabic.csv'], { home, env, stdoutIsTTY: true });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^Class +Rows +Amount$/);
    expect(lines).toContain('amount-differs          1     -1.00');
    const table = lines.slice(lines.indexOf('') + 1);
    expect(table[0]).toMatch(/^Row +Class +Reference +Invoice +Orders +Ledger +Difference +Refunded$/);
    const classes = table.filter((line) => /^ *(\d+|-) /.test(line)).map((line) => line.trim().split(/ +/)[1]);
    expect(classes).toEqual([
      'refunded',
      'amount-differs',
      'duplicate-in-orders',
      'duplicate-in-orders',
      'not-invoiced',
      'not-invoiced',
      'not-in-orders',
      'not-in-orders',
      'not-in-orders',
    ]);
    expect(table).toContainEqual(expect.stringMatching(/^ +21 +not-invoiced +طلب-٧ +- +70\.00 +- +- +-$/));
    expect(result.stderr).toContain('Compared 20 orders of arabic.csv with 20 invoices of the ledger of sandbox.');
    const piped = await runInProcess(['invoices', 'reconcile', 'arabic.csv'], { home, env });
    expect(piped.stdout).toBe(result.stdout);

    // A terminal shows the first 50 rows to look at and says how to see them all; a pipe gets every one.
    writeFileSync(
      join(home, 'many.csv'),
      csv(Array.from({ length: 60 }, (_, index) => cells(`NEW-${index}`, '1.00', index))),
    );
    const many = await runInProcess(['invoices', 'reconcile', 'many.csv'], { home, env, stdoutIsTTY: true });
    expect(many.stdout.split('\n').filter((line) => / not-invoiced /.test(line))).toHaveLength(50);
    expect(many.stderr).toContain(
      'The first 50 of 80 rows to look at are shown; --json or --report FILE lists every row',
    );
    const manyPiped = await runInProcess(['invoices', 'reconcile', 'many.csv'], { home, env });
    expect(manyPiped.stdout.split('\n').filter((line) => / not-invoiced /.test(line))).toHaveLength(60);
  });

  it('--report writes every row as CSV (formulas kept as text), a workbook or JUnit, the user alone reading it', async () => {
    writeFileSync(
      join(home, 'formula.csv'),
      'businessReference,amount\n"=HYPERLINK(""x"")",5.00\n@SUM(1),6.00\n+1+2,7.00\n-2+3,8.00\n',
    );
    const result = await reconcile(['formula.csv', '--report', 'report.csv']);
    expect(result.code, result.stderr).toBe(0);
    const report = readFileSync(join(home, 'report.csv'), 'utf8');
    expect(
      report.startsWith('\uFEFFclass,businessReference,row,invoiceNumber,ordersAmount,ledgerAmount,difference'),
    ).toBe(true);
    expect(report).toContain(`\r\nnot-invoiced,"'=HYPERLINK(""x"")",2,,5.00,,,,,\r\n`);
    expect(report).toContain("\r\nnot-invoiced,'@SUM(1),3,,6.00,,,,,\r\n");
    expect(report).toContain("\r\nnot-invoiced,'+1+2,4,,7.00,,,,,\r\n");
    expect(report).toContain("\r\nnot-invoiced,'-2+3,5,,8.00,,,,,\r\n");
    // No cell of it begins as a formula would.
    const cellsOf = report.split('\r\n').flatMap((line) => line.split(','));
    expect(cellsOf.filter((cell) => /^"?[=+\-@\t\r]/.test(cell))).toEqual([]);
    expect(statSync(join(home, 'report.csv')).mode & 0o777).toBe(0o600);

    const junit = await reconcile(['orders.csv', '--report', 'report.xml']);
    expect(junit.code, junit.stderr).toBe(0);
    const xml = readFileSync(join(home, 'report.xml'), 'utf8');
    expect(xml).toContain('tests="22" failures="7"');
    expect(xml).toContain('<testcase name="row 7 (RC-5)" classname="amount-differs">');
    expect(xml).toContain('<testcase name="row 2 (RC-0)" classname="matched"/>');

    const workbook = await reconcile(['orders.csv', '--report', 'report.xlsx']);
    expect(workbook.code, workbook.stderr).toBe(0);
    const book = new Workbook();
    await book.xlsx.readFile(join(home, 'report.xlsx'));
    const sheet = book.worksheets[0];
    expect(sheet?.getRow(1).getCell(1).value).toBe('class');
    expect(sheet?.rowCount).toBe(23);
    expect((sheet?.getRow(7).values as unknown[]).slice(1, 8)).toEqual([
      'amount-differs',
      'RC-5',
      7,
      expect.any(String),
      106,
      105,
      -1,
    ]);
  });

  it('in GitHub Actions: a warning on each orders row to look at, and the totals on the step summary', async () => {
    const summary = join(home, 'step-summary.md');
    const result = await reconcile(['orders.csv'], {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_WORKSPACE: home,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('::group::einvoice: 8 rows to look at');
    expect(result.stderr).toMatch(
      /^::warning file=orders\.csv,line=7,title=einvoice reconcile%3A amount-differs::row 7 \(RC-5\): invoiced for another amount than ordered; orders 106\.00, ledger 105\.00, difference -1\.00, invoice \d+$/m,
    );
    expect(result.stderr).toMatch(
      /^::warning file=orders\.csv,line=20,title=einvoice reconcile%3A not-invoiced::row 20 \(RC-99\)/m,
    );
    expect(result.stderr).toMatch(/^::warning title=einvoice reconcile%3A not-in-orders::no order \(RC-17\)/m);
    expect(result.stderr).toMatch(/^::notice file=orders\.csv,line=5,title=einvoice reconcile%3A refunded::/m);
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toContain('### einvoice: orders.csv against the ledger of sandbox');
    expect(markdown).toContain('| amount-differs | 1 | -1.00 |');
    expect(markdown).toContain('| 20 | not-invoiced | RC-99 |');
  });

  it('warns of a ledger that holds nothing, on the terminal and in GitHub Actions alike', async () => {
    const empty = tempHome();
    writeFileSync(join(empty, 'orders.csv'), csv(orderRows()));
    const summary = join(empty, 'step-summary.md');
    const result = await runInProcess(['invoices', 'reconcile', 'orders.csv'], {
      home: empty,
      env: {
        EINVOICE_BASE_URL: service.url,
        EINVOICE_TOKEN: token,
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: summary,
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^! No invoice sent to sandbox is recorded in the ledger of this machine/m);
    expect(result.stderr).toMatch(/^::warning title=einvoice reconcile::No invoice sent to sandbox is recorded/m);
    expect(readFileSync(summary, 'utf8')).toMatch(/#### Warnings\n\n- No invoice sent to sandbox is recorded/);
  });

  it('reads stdin as NDJSON with the shop export names, and a shop sheet by its own columns (Arabic headers)', async () => {
    const ndjson = orderRows()
      .map((row) => JSON.stringify({ 'Order No': row[6], Total: Number(row[2]), Status: 'paid' }))
      .join('\n');
    const fromStdin = await reconcile(
      ['-', '--format', 'ndjson', '--reference-column', 'Order No', '--amount-column', 'Total', '--json'],
      {},
      `${ndjson}\n`,
    );
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    const fromSheet = await reconciled(['orders.csv']);
    expect(classesOf(JSON.parse(fromStdin.stdout) as Reconciled)).toEqual(classesOf(fromSheet));

    const shop = ['رقم الطلب;الإجمالي;الحالة', 'RC-۰;100,00;مدفوع', 'RC-1;"1.234,50";مدفوع'];
    writeFileSync(join(home, 'shop.csv'), `${shop.join('\n')}\n`);
    const read = await reconcile([
      'shop.csv',
      '--reference-column',
      'رقم الطلب',
      '--amount-column',
      'الإجمالي',
      '--json',
    ]);
    // A decimal comma is no amount a merchant's file may hold: each is named by its row and column, at once.
    expect(read.code).toBe(2);
    expect(read.stderr).toContain('row 2, column الإجمالي (B): must be a number, written with a decimal point: 100.00');
    expect(read.stderr).toContain('row 3, column الإجمالي (B)');
    expect(read.stdout).toBe('');
    // A column named as an invoice's field is the shop's when another is named for it (--reference-column).
    const shopSheet = [
      'رقم الطلب;الإجمالي;الحالة;businessReference;Date',
      'RC-۰;100.00;مدفوع;SHOP-1;2026-11-01',
      'RC-1;101;مدفوع;SHOP-2;2026-11-02',
      'NEW-1;5.50;مدفوع;SHOP-3;2026-11-03',
    ];
    writeFileSync(join(home, 'shop.csv'), `${shopSheet.join('\n')}\n`);
    const shopped = await reconciled(['shop.csv', '--reference-column', 'رقم الطلب', '--amount-column', 'الإجمالي']);
    expect(shopped.rows.find((row) => row.businessReference === 'RC-۰')).toMatchObject({
      class: 'matched',
      ledgerReference: 'RC-0',
    });
    expect(shopped.summary.matched?.count).toBe(2);

    // Written out as invoices: the reference, the amount and the date filled, what an invoice needs besides named.
    const shopColumns = ['--reference-column', 'رقم الطلب', '--amount-column', 'الإجمالي', '--date-column', 'Date'];
    const emitted = await reconcile(['shop.csv', ...shopColumns, '--emit-missing', 'shop-missing.csv']);
    expect(emitted.code, emitted.stderr).toBe(0);
    expect(emitted.stderr).toContain(
      'shop-missing.csv leaves fields an invoice needs empty: customer.name (1 row), customer.mobile (1 row), ' +
        'expiryDate (1 row), releaseDate (1 row), note (1 row). Fill them',
    );
    const [header = [], row = []] = readFileSync(join(home, 'shop-missing.csv'), 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(header.slice(0, 8)).toEqual([
      'customer.name',
      'customer.mobile',
      'customer.email',
      'amount',
      'sendingDate',
      'releaseDate',
      'expiryDate',
      'businessReference',
    ]);
    expect(header).not.toContain('Date');
    const filled = ['businessReference', 'amount', 'sendingDate'].map((column) => row[header.indexOf(column)]);
    expect(filled).toEqual(['NEW-1', '5.5', '2026-11-03']);
  });

  it('refuses orders it cannot read whole, every problem named by row and column, and writes nothing', async () => {
    writeFileSync(
      join(home, 'bad.csv'),
      csv([cells('RC-0', '100.005', 0), cells(' ', '100.00', 1), cells('RC-2', '102', 2)]),
    );
    const result = await reconcile(['bad.csv', '--report', 'bad-report.csv', '--emit-missing', 'bad-missing.csv']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('bad.csv: 2 orders cannot be read; nothing was compared.');
    expect(result.stderr).toContain('row 2, column amount (C): must have at most two decimals');
    expect(result.stderr).toContain('row 3, column businessReference (G): is required');
    expect(existsSync(join(home, 'bad-report.csv'))).toBe(false);
    expect(existsSync(join(home, 'bad-missing.csv'))).toBe(false);

    writeFileSync(join(home, 'columns.csv'), 'Order No,Total\nRC-1,101\n');
    const unnamed = await reconcile(['columns.csv']);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain(
      'has no column businessReference: name the column that holds it with --reference-column NAME',
    );
    expect(unnamed.stderr).toContain('Its columns: "Order No", "Total".');
    expect(unnamed.stderr).not.toContain('--file');
    // A sheet of a header alone is refused alike: its columns are what is wrong, not its rows.
    writeFileSync(join(home, 'header-only.csv'), 'Order No,Total\n');
    const empty = await reconcile(['header-only.csv', '--amount-column', 'Total']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("header-only.csv has no column of the orders' references; nothing was compared.");

    // The sheet readers' refusals name the orders as given, not as a bulk run's --file.
    writeFileSync(join(home, 'quote.csv'), 'businessReference,amount\n"RC-1,101\n');
    const broken = await reconcile(['quote.csv']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(
      '✖ quote.csv is not valid CSV: row 2, column A: a quote opens a cell that is never closed',
    );
    expect(broken.stderr).not.toContain('--file');
  });

  it('refuses what does not apply before reading: --date-column without --emit-missing, --sheet for CSV, one JSON object', async () => {
    const dated = await reconcile(['orders.csv', '--date-column', 'Order Date']);
    expect(dated.code).toBe(2);
    expect(dated.stderr).toContain('--date-column applies only with --emit-missing');
    const sheet = await reconcile(['orders.csv', '--sheet', 'Orders']);
    expect(sheet.code).toBe(2);
    expect(sheet.stderr).toContain('--sheet applies only to an .xlsx workbook.');
    writeFileSync(join(home, 'one.json'), '{"businessReference": "RC-1", "amount": 101}\n');
    const one = await reconcile(['one.json']);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('one.json holds one JSON object: the orders are many records; nothing was compared.');
  });

  it('reads orders Excel saved in Windows-1256 with --encoding, and names the encoding without it', async () => {
    const windows1256 = new Map<string, number>();
    for (let byte = 0; byte < 256; byte++)
      windows1256.set(new TextDecoder('windows-1256').decode(Uint8Array.of(byte)), byte);
    const bytes = Buffer.from(
      [...'businessReference,amount\r\nطلب-7,70.00\r\n'].map((char) => windows1256.get(char) ?? 0),
    );
    writeFileSync(join(home, 'arabic-1256.csv'), bytes);
    const read = await reconciled(['arabic-1256.csv', '--encoding', 'windows-1256']);
    expect(read.rows.find((row) => row.row === 2)).toMatchObject({ class: 'not-invoiced', businessReference: 'طلب-7' });
    const unread = await reconcile(['arabic-1256.csv']);
    expect(unread.code).toBe(2);
    expect(unread.stderr).toContain('Windows-1256');
    expect(unread.stdout).toBe('');
  });

  it('--since and --until bound the invoices by when they were sent', async () => {
    const later = await reconciled(['orders.csv', '--since', '2999-01-01']);
    expect(later.summary['not-invoiced']?.count).toBe(17);
    expect(later.summary['duplicate-in-orders']?.count).toBe(2);
    expect(later.summary['not-in-orders']?.count).toBe(0);
    expect(later.compared.invoiceCount).toBe(0);
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const within = await reconciled(['orders.csv', '--since', '2000-01-01', '--until', until]);
    expect(within.compared.invoiceCount).toBe(20);
    const bad = await reconcile(['orders.csv', '--until', 'tomorrow-ish']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--until tomorrow-ish is not a day or an instant.');
  });
});

describe('einvoice invoices reconcile: what the ledger knows of each invoice, from journals imported', () => {
  const ledgerHome = tempHome();

  /** A bulk run's journal, as a run writes it, of records that each met `outcome`. */
  function writeJournal(
    name: string,
    at: string,
    records: Array<{
      key: string;
      reference?: string;
      amount: number;
      outcome: 'created' | 'uncertain' | 'refused';
      number?: string;
    }>,
  ): string {
    const lines: unknown[] = [
      {
        type: 'run',
        version: 1,
        at,
        resolveDatesAt: at,
        kind: 'single',
        input: name,
        environment: 'sandbox',
        service: 'built-in sandbox',
      },
    ];
    records.forEach(({ key, reference, amount, outcome, number }, index) => {
      const body = {
        customer: { name: 'Mona Adel', mobile: '+201001234567' },
        amount,
        sendingDate: '2026-11-01',
        releaseDate: '2026-11-01T00:00:00.000Z',
        expiryDate: '2026-12-01T00:00:00.000Z',
        note: 'Order',
        ...(reference === undefined ? {} : { businessReference: reference }),
      };
      lines.push({ type: 'planned', key, record: index + 1, line: index + 2, businessReference: reference, body });
      lines.push({ type: 'sent', key, at });
      if (outcome === 'created') lines.push({ type: 'created', key, invoiceNumber: number });
      if (outcome === 'refused') lines.push({ type: 'failed', key, error: 'refused', status: 400 });
    });
    const path = join(ledgerHome, name);
    writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    return path;
  }

  beforeAll(async () => {
    const first = writeJournal('first.ndjson', '2026-11-01T08:00:00.000Z', [
      { key: 'a', reference: 'DL-1', amount: 10, outcome: 'created', number: '2000001' },
      { key: 'b', reference: 'DL-1', amount: 11, outcome: 'created', number: '2000002' },
      { key: 'c', reference: 'UN-1', amount: 5, outcome: 'uncertain' },
      { key: 'd', reference: 'UN-2', amount: 7, outcome: 'uncertain' },
      { key: 'e', reference: 'RE-1', amount: 8, outcome: 'created', number: '2000005' },
      { key: 'f', reference: 'RF-1', amount: 9, outcome: 'refused' },
      { key: 'g', reference: 'X-1', amount: 3, outcome: 'created', number: '2000007' },
      { key: 'h', amount: 4, outcome: 'created', number: '2000008' },
      { key: 'i', amount: 6, outcome: 'created', number: '2000009' },
    ]);
    // A later run: the invoice whose answer was lost, found made; the one already made, found again; a lost answer lost
    // again, which is still at most one invoice.
    const second = writeJournal('second.ndjson', '2026-11-02T08:00:00.000Z', [
      { key: 'd', reference: 'UN-2', amount: 7, outcome: 'created', number: '2000004' },
      { key: 'e', reference: 'RE-1', amount: 8, outcome: 'created', number: '2000005' },
      { key: 'c', reference: 'UN-1', amount: 5, outcome: 'uncertain' },
    ]);
    const imported = await runInProcess(['invoices', 'import', first, second], { home: ledgerHome });
    expect(imported.code, imported.stderr).toBe(0);
    writeFileSync(
      join(ledgerHome, 'orders.csv'),
      'businessReference,amount\nDL-1,10.00\nUN-1,5.00\nUN-2,7.00\nRE-1,8.00\nRF-1,9.00\n',
    );
  });

  it('one entry per invoice: two invoices of a reference, a lost answer, one found again, a refusal that made none', async () => {
    const result = await runInProcess(['invoices', 'reconcile', 'orders.csv', '--json'], { home: ledgerHome });
    expect(result.code, result.stderr).toBe(0);
    const { rows: reconciledRows, compared } = JSON.parse(result.stdout) as Reconciled;
    // Two of DL-1, UN-1, UN-2 and RE-1 once each, X-1 and two without a reference; RF-1 was refused.
    expect(compared.invoiceCount).toBe(8);
    expect(reconciledRows.map((row) => [row.class, row.businessReference, row.row, row.invoiceNumber])).toEqual([
      ['duplicate-in-ledger', 'DL-1', 2, '2000001'],
      ['duplicate-in-ledger', 'DL-1', 2, '2000002'],
      ['uncertain', 'UN-1', 3, null],
      ['matched', 'UN-2', 4, '2000004'],
      ['matched', 'RE-1', 5, '2000005'],
      ['not-invoiced', 'RF-1', 6, null],
      ['not-in-orders', 'X-1', null, '2000007'],
      ['not-in-orders', null, null, '2000008'],
      ['not-in-orders', null, null, '2000009'],
    ]);
  });

  it("finds an environment's ledger by its name alone, with no profile entry, as invoices list does", async () => {
    const result = await runInProcess(['invoices', 'reconcile', 'orders.csv', '--env', 'staging', '--json'], {
      home: ledgerHome,
    });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as Reconciled).compared).toMatchObject({
      environment: 'staging',
      invoiceCount: 0,
    });
    expect(result.stderr).toContain('! No invoice sent to staging is recorded in the ledger of this machine');
    expect(result.stderr).toContain('This machine keeps the ledgers of sandbox.');
  });

  it('warns that a ledger turned off holds only what was recorded before', async () => {
    writeFileSync(join(ledgerHome, 'off.json'), JSON.stringify({ environments: { sandbox: { ledger: false } } }));
    const result = await runInProcess(['invoices', 'reconcile', 'orders.csv', '--config', 'off.json'], {
      home: ledgerHome,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('! The ledger of sandbox is off (ledger: false in the profile)');
  });
});

describe('einvoice invoices reconcile: a sandbox that was reset numbers anew', () => {
  const resetHome = tempHome();
  const send = async (file: string, rows: string[][]) => {
    writeFileSync(join(resetHome, file), csv(rows));
    const sent = await runInProcess(['create', 'single', '--file', file, '--yes', '--json'], {
      home: resetHome,
    });
    expect(sent.code, sent.stderr).toBe(0);
  };

  it("reads only the invoices of the sandbox's state now: the reset one's, refunded or not, are not the service's", async () => {
    await send('before.csv', [cells('SR-1', '100.00', 1), cells('SR-2', '200.00', 2)]);
    const listed = await runInProcess(['invoices', 'list', '--ref', 'SR-1', '--json'], { home: resetHome });
    const [{ invoiceNumber }] = JSON.parse(listed.stdout) as [{ invoiceNumber: string }];
    const paid = await runInProcess(['sandbox', 'pay', invoiceNumber], { home: resetHome });
    expect(paid.code, paid.stderr).toBe(0);
    const refund = [invoiceNumber, '--amount', '100', '--reason', 'Returned', '--order-ref', paid.stdout.trim()];
    expect((await runInProcess(['refund', ...refund, '--yes'], { home: resetHome })).code).toBe(0);
    expect((await runInProcess(['sandbox', 'reset'], { home: resetHome })).code).toBe(0);
    await send('after.csv', [cells('SR-1', '100.00', 1)]);
    const again = await runInProcess(['invoices', 'list', '--ref', 'SR-1', '--json'], { home: resetHome });
    expect((JSON.parse(again.stdout) as Array<{ status: string }>).map((row) => row.status)).toEqual([
      'created',
      'refunded',
    ]);
    writeFileSync(join(resetHome, 'orders.csv'), 'businessReference,amount\nSR-1,100.00\nSR-2,200.00\n');
    const result = await runInProcess(['invoices', 'reconcile', 'orders.csv', '--json'], {
      home: resetHome,
      env: { EINVOICE_BASE_URL: service.url, EINVOICE_TOKEN: token },
    });
    expect(result.code, result.stderr).toBe(0);
    const { rows, compared } = JSON.parse(result.stdout) as Reconciled;
    expect(rows.map((row) => [row.class, row.businessReference, row.ledgerStatus])).toEqual([
      ['matched', 'SR-1', 'created'],
      ['not-invoiced', 'SR-2', null],
    ]);
    expect(compared.invoiceCount).toBe(1);
    expect(result.stderr).toContain(
      "Left out 2 invoices of a sandbox since reset or replaced: its invoices are not the service's any more.",
    );
  });
});
