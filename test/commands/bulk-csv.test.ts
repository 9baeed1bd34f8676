import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';

// `einvoice create --file sheet.csv`: a sheet as spreadsheet programs write it creates each row once; a bad row or
// an unknown column is refused by row and column before anything is sent.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.api.reset(false));

/** Rows joined as Excel's "CSV UTF-8" writes them: a byte order mark, CRLF line ends. */
function excelCsv(rows: string[]): string {
  return `\uFEFF${rows.join('\r\n')}\r\n`;
}

interface JsonReport {
  summary: Record<string, unknown>;
  records: Array<Record<string, unknown>>;
}

async function requestsByReference(): Promise<Map<string, Record<string, unknown>[]>> {
  const byReference = new Map<string, Record<string, unknown>[]>();
  for (const invoice of await sandbox.api.invoices()) {
    const request = invoice.request as Record<string, unknown>;
    const reference = request.businessReference as string;
    byReference.set(reference, [...(byReference.get(reference) ?? []), request]);
  }
  return byReference;
}

const commaSheet = excelCsv([
  'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note,items',
  'INV-1,"سارة أحمد",+201001234567,"1,250.50",2030-01-01,2030-01-01,2030-02-01,"Rent, January",',
  'INV-2,"محمد علي",+201001234568,,2030-01-01,2030-01-01,2030-02-01,Two shirts,"code=SH1,qty=2,price=150,en=Shirt,ar=قميص\r\ncode=SO1,qty=1,price=20.25,en=Socks,ar=جوارب"',
  'INV-3,Amr Hassan,+201001234569,99.99,2030-01-01,2030-01-01,2030-02-01,Plan,',
]);

describe('a CSV written as Excel writes it', () => {
  it('creates every row exactly once: BOM, CRLF, quoted Arabic, a thousands separator, two items in one cell', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), commaSheet);
    const result = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes', '--json'], { home });

    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.records.map((entry) => [entry.row, entry.status])).toEqual([
      [2, 'created'],
      [3, 'created'],
      // The two lines of INV-2's items cell are one row of the sheet.
      [4, 'created'],
    ]);
    const requests = await requestsByReference();
    expect([...requests.keys()].sort()).toEqual(['INV-1', 'INV-2', 'INV-3']);
    expect([...requests.values()].every((list) => list.length === 1)).toBe(true);
    const [first] = requests.get('INV-1') ?? [];
    expect(first).toMatchObject({ customer: { name: 'سارة أحمد' }, amount: 1250.5, note: 'Rent, January' });
    const [second] = requests.get('INV-2') ?? [];
    expect(second).toMatchObject({ customer: { name: 'محمد علي' }, amount: 320.25 });
    expect((second?.items as Array<Record<string, unknown>>).map((item) => item.nameAr)).toEqual(['قميص', 'جوارب']);

    const again = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes'], { home });
    expect(again.code, again.stderr).toBe(0);
    expect((await received(sandbox)).count).toBe(3);
  });

  it('reads the ;-separated variant with DD/MM/YYYY dates, flag-named columns and items[n] columns', async () => {
    // Its instants are those of UTC's days.
    const home = homeFor(sandbox, { timeZone: 'UTC' });
    const sheet = excelCsv([
      'businessReference;customer-name;customer-mobile;sending-date;release-date;expiry-date;note;items[0].itemCode;items[0].purchasedQuantity;items[0].price;items[0].nameEn;items[0].nameAr',
      'S-1;"خالد يوسف";+201001234567;01/02/2030;01/02/2030;28/02/2030;"Order; first";K1;3;"1,000.10";Kettle;غلاية',
      'S-2;Mona Adel;+201001234568;15/03/2030;15/03/2030;31/03/2030;Second;K2;1;5;Cup;كوب',
    ]);
    writeFileSync(join(home, 'sheet.csv'), sheet);
    const result = await runInProcess(
      ['create', 'single', '--file', 'sheet.csv', '--date-format', 'DD/MM/YYYY', '--yes'],
      { home },
    );

    expect(result.code, result.stderr).toBe(0);
    const requests = await requestsByReference();
    expect(requests.size).toBe(2);
    expect(requests.get('S-1')).toEqual([
      expect.objectContaining({
        customer: { name: 'خالد يوسف', mobile: '+201001234567' },
        sendingDate: '2030-02-01',
        expiryDate: '2030-02-28T23:59:59.999Z',
        note: 'Order; first',
        amount: 3000.3,
      }),
    ]);
    expect(requests.get('S-2')?.[0]?.sendingDate).toBe('2030-03-15');
  });

  it('names the records to look at by their rows: a row changed after it was created is held back', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), commaSheet);
    const first = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes'], { home });
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(join(home, 'sheet.csv'), commaSheet.replace('99.99', '109.99'));
    const rerun = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes'], { home });
    expect(rerun.code).toBe(6);
    expect(rerun.stderr).toMatch(
      /^ {2}row 4 \(INV-3\): changed: edited after an earlier run created it as invoice \d+/m,
    );
    expect(rerun.stderr).toContain('✖ 1 of 3 records was edited after an earlier run sent it.');
    expect(rerun.stderr).toContain('give it a new businessReference, or run with a new --journal');
    expect((await received(sandbox)).count).toBe(3);
  });

  it('holds back rows whose expiry is not after their other dates, and sends them with --allow-expired', async () => {
    // Its instants are those of UTC's days.
    const home = homeFor(sandbox, { timeZone: 'UTC' });
    const sheet = [
      'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note',
      'D-1,Amr,+201001234567,10,01/12/2030,01/12/2030,30/11/2030,day and month as read',
      'D-2,Mona,+201001234567,10,01/01/2030,01/01/2030,01/02/2030,fine',
    ].join('\r\n');
    writeFileSync(join(home, 'dates.csv'), sheet);
    const args = ['single', '--file', 'dates.csv', '--date-format', 'DD/MM/YYYY', '--dry-run'];
    const held = await runInProcess(['create', ...args], { home });
    expect(held.code).toBe(2);
    expect(held.stderr).toContain(
      '  row 2, column expiryDate (G): 2030-11-30T23:59:59.999Z is not after releaseDate 2030-12-01T00:00:00.000Z or sendingDate 2030-12-01',
    );
    expect(held.stderr).not.toContain('row 3');

    const result = await runInProcess(['create', ...args, '--allow-expired'], { home });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('1 record has 1 warning to look at:');
    expect(result.stderr).toContain(
      '  row 2, column expiryDate (G): 2030-11-30T23:59:59.999Z is not after releaseDate 2030-12-01T00:00:00.000Z or sendingDate 2030-12-01; sent (--allow-expired)',
    );
    expect(result.stderr).not.toContain('row 3');
  });

  it('reads CSV from stdin with --format csv', async () => {
    const home = homeFor(sandbox);
    const result = await runInProcess(
      ['create', 'single', '--file', '-', '--format', 'csv', '--journal', 'stdin.journal.ndjson', '--yes'],
      { home, input: commaSheet },
    );
    expect(result.code, result.stderr).toBe(0);
    expect((await received(sandbox)).count).toBe(3);
  });
});

describe('a row that repeats an earlier row (rule 2.3.2)', () => {
  it('is named by its row and the row it repeats, in the notice and in --json', async () => {
    const home = homeFor(sandbox);
    const sheet = excelCsv([
      'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note',
      'D-1,Amr,+201001234567,10,2030-01-01,2030-01-01,2030-02-01,first',
      'D-2,Mona,+201001234567,20,2030-01-01,2030-01-01,2030-02-01,other',
      'D-1,Amr,+201001234567,10.00,2030-01-01,2030-01-01,2030-02-01,again',
    ]);
    writeFileSync(join(home, 'dups.csv'), sheet);
    const result = await runInProcess(['create', 'single', '--file', 'dups.csv', '--dry-run', '--json'], { home });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('is not sent: row 4 (as row 2).');
    const repeated = (JSON.parse(result.stdout) as { records: Record<string, unknown>[] }).records[2];
    expect(repeated).toMatchObject({
      row: 4,
      status: 'duplicate',
      duplicateOf: 1,
      duplicateOfRow: 2,
      error: 'same businessReference, amount and sendingDate as row 2',
    });
  });
});

describe('a sheet refused before anything is sent', () => {
  it('names a bad row by its row number and column letter, and --report writes CSV with the rows', async () => {
    const home = homeFor(sandbox);
    const sheet = excelCsv([
      'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note',
      'R-1,Amr,+201001234567,10,2030-01-01,2030-01-01,2030-02-01,fine',
      '',
      'R-2,Mona,12,10,2030-01-01,2030-01-01,2030-02-01,bad mobile',
      'R-3,Ali,+201001234567,ten,01/02/2030,2030-01-01,2030-02-01,bad amount and date',
      'R-4,Hana,+201001234567,"12,50",2030-01-01,2030-01-01,2030-02-01,decimal comma',
    ]);
    writeFileSync(join(home, 'sheet.csv'), sheet);
    const result = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes', '--report', 'report.csv'], {
      home,
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('3 of 4 records are invalid; nothing was sent.');
    expect(result.stderr).toMatch(/^ {2}row 4, column customer\.mobile \(C\): must be a mobile number/m);
    expect(result.stderr).toMatch(/^ {2}row 5, column amount \(D\): must be a number$/m);
    expect(result.stderr).toMatch(
      /^ {2}row 6, column amount \(D\): must be a number, written with a decimal point: 12\.50$/m,
    );
    expect(result.stderr).toContain(
      'row 5, column sendingDate (E): is 01/02/2030: a date with slashes is read only as declared, with --date-format DD/MM/YYYY',
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect((await received(sandbox)).count).toBe(0);
    expect(existsSync(join(home, 'sheet.csv.local.journal.ndjson'))).toBe(false);
    const rows = readFileSync(join(home, 'report.csv'), 'utf8').trim().split('\n');
    expect(rows[0]).toBe('record,row,businessReference,status,invoiceNumber,error,warnings');
    expect(rows.slice(1).map((row) => row.split(',').slice(0, 4).join(','))).toEqual([
      '1,2,R-1,not-sent',
      '2,4,R-2,invalid',
      '3,5,R-3,invalid',
      '4,6,R-4,invalid',
    ]);
  });

  it('refuses an unknown column with a suggestion; --ignore-column skips it', async () => {
    const home = homeFor(sandbox);
    const sheet = excelCsv([
      'businessReference,customer.name,custmer.mobile,amount,sendingDate,releaseDate,expiryDate,note,Region',
      'U-1,Amr,+201001234567,10,2030-01-01,2030-01-01,2030-02-01,one,Cairo',
    ]);
    writeFileSync(join(home, 'sheet.csv'), sheet);
    const refused = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes'], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'column C "custmer.mobile" is not an invoice field; did you mean customer.mobile?',
    );
    expect(refused.stderr).toContain('column I "Region" is not an invoice field');
    expect(refused.stderr).toContain(
      '--ignore-column NAME skips a column; einvoice template single --format csv prints a header to start from.\nsee: einvoice help csv',
    );
    const recurring = await runInProcess(['create', 'recurring', '--file', 'sheet.csv', '--yes'], { home });
    expect(recurring.stderr).toContain('einvoice template recurring --format csv prints a header to start from.');

    writeFileSync(join(home, 'sheet.csv'), sheet.replace('custmer.mobile', 'customer.mobile'));
    const sent = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes', '--ignore-column', 'Region'], {
      home,
    });
    expect(sent.code, sent.stderr).toBe(0);
    expect((await received(sandbox)).count).toBe(1);
  });

  it('asks for --delimiter when the header holds two separators, and refuses CSV flags for JSON input', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), 'note;amount,customer.name\nx;1,y\n');
    const ambiguous = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes'], { home });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('its header holds "," and ";"');
    expect(ambiguous.stderr).toContain('--delimiter');

    // Named with --delimiter, any separator is read, here in a file of any name with --format csv.
    writeFileSync(
      join(home, 'sheet.txt'),
      'note|customer.name|customer.mobile|amount|sendingDate|releaseDate|expiryDate\n' +
        'Tab and pipe|Amr|+201001234567|"1,000"|2030-01-01|2030-01-01|2030-02-01\n',
    );
    const piped = await runInProcess(
      ['create', 'single', '--file', 'sheet.txt', '--format', 'csv', '--delimiter', '|', '--dry-run', '--json'],
      { home },
    );
    expect(piped.code, piped.stderr).toBe(0);
    expect((JSON.parse(piped.stdout) as JsonReport).records).toEqual([expect.objectContaining({ status: 'valid' })]);

    writeFileSync(join(home, 'one.json'), '{}');
    const notCsv = await runInProcess(['create', 'single', '--file', 'one.json', '--date-format', 'DD/MM/YYYY'], {
      home,
    });
    expect(notCsv.code).toBe(2);
    expect(notCsv.stderr).toContain('--date-format applies only to a sheet, a CSV or .xlsx --file; nothing was sent.');
    const notWorkbook = await runInProcess(['create', 'single', '--file', 'one.json', '--delimiter', ';'], { home });
    expect(notWorkbook.stderr).toContain('--delimiter applies only to a CSV --file; nothing was sent.');
    const noFile = await runInProcess(['create', 'single', '--format', 'csv', '--note', 'Order 1', '--no-input'], {
      home,
    });
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('--format applies only to --file; nothing was sent.');
    expect((await received(sandbox)).count).toBe(0);
  });
});

describe('docs/csv.md', () => {
  it('shows a sheet that is valid as it stands: five rows, two Arabic names, one row with two items', async () => {
    const page = readFileSync(new URL('../../docs/csv.md', import.meta.url), 'utf8');
    const sheet = /```csv\n([\s\S]*?)```/.exec(page)?.[1];
    expect(sheet).toBeDefined();
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'invoices.csv'), sheet ?? '');
    const result = await runInProcess(
      ['create', 'single', '--file', 'invoices.csv', '--date-format', 'DD/MM/YYYY', '--dry-run', '--json'],
      { home },
    );
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.records.map((entry) => [entry.row, entry.status])).toEqual([
      [2, 'valid'],
      [3, 'valid'],
      [4, 'valid'],
      [5, 'valid'],
      [6, 'valid'],
    ]);
    expect((await received(sandbox)).count).toBe(0);
  });
});
