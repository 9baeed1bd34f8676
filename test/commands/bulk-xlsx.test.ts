import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workbook } from '@cj-tech-master/excelts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestServer } from '../helpers/http-server.js';
import { homeFor } from '../helpers/profile.js';
import {
  excelSerial,
  handMadeWorkbook,
  withDeclaredSizes,
  writeHandMadeWorkbook,
  type HandCell,
} from '../helpers/workbook.js';

// `einvoice create --file invoices.xlsx`: a workbook's cells are read by their type (text, numbers, dates,
// formulas, errors) into the same records a CSV sheet gives; a bad cell is refused by its Excel name with nothing sent.

let sandbox: TestSandbox;

beforeAll(async () => {
  // With its dashboard, whose download is checked too.
  sandbox = await startTestSandbox({ ui: true });
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.api.reset(false));

const header: HandCell[] = [
  'businessReference',
  'customer.name',
  'customer.mobile',
  'amount',
  'sendingDate',
  'releaseDate',
  'expiryDate',
  'note',
].map((name) => ({ shared: name }));

/** A row as another program writes it: Arabic text shared, the mobile inline text, the amount a number, dates. */
function row(reference: string, overrides: Partial<Record<number, HandCell>> = {}, date1904 = false): HandCell[] {
  const cells: HandCell[] = [
    { inline: reference },
    { shared: 'سارة عبد الله' },
    { inline: '01011112222' },
    { number: '150.55000000000001' },
    { date: excelSerial('2030-01-05', '00:00:00', date1904) },
    { date: excelSerial('2030-01-05', '00:00:00', date1904) },
    { date: excelSerial('2030-02-05', '00:00:00', date1904) },
    { shared: 'إيجار يناير' },
  ];
  for (const [index, cell] of Object.entries(overrides)) cells[Number(index)] = cell ?? null;
  return cells;
}

async function requests(): Promise<Array<Record<string, unknown>>> {
  return (await sandbox.api.invoices()).map((invoice) => invoice.request as Record<string, unknown>);
}

describe('a workbook made by another program', () => {
  it('creates each row: the Arabic name byte for byte, the mobile as text, 150.55, the dates as written', async () => {
    const home = homeFor(sandbox, { timeZone: 'Africa/Cairo' });
    await writeHandMadeWorkbook(join(home, 'invoices.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('X-1'), row('X-2'), [], []] }],
    });
    const result = await runInProcess(['create', 'single', '--file', 'invoices.xlsx', '--yes', '--json'], { home });

    expect(result.code, result.stderr).toBe(0);
    const sent = await requests();
    expect(sent.map((request) => request.businessReference).sort()).toEqual(['X-1', 'X-2']);
    const [first] = sent;
    expect(Buffer.from(String((first?.customer as Record<string, unknown>).name))).toEqual(
      Buffer.from('سارة عبد الله'),
    );
    expect(first).toMatchObject({
      customer: { mobile: '01011112222' },
      amount: 150.55,
      sendingDate: '2030-01-05',
      // The start and end of the day in Cairo (UTC+2 in winter).
      releaseDate: '2030-01-04T22:00:00.000Z',
      expiryDate: '2030-02-05T21:59:59.999Z',
    });
    // No value to look at: the mobile stored as text is never in doubt.
    expect(result.stderr).not.toContain('leading 0');

    // The dashboard's download holds them as they were sent: the name byte for byte, the amount a number.
    const download = await fetch(`${sandbox.url}/__sandbox/ui/invoices.xlsx?search=X-1`);
    expect(download.headers.get('content-type')).toContain('spreadsheetml');
    const workbook = new Workbook();
    await workbook.xlsx.load(new Uint8Array(await download.arrayBuffer()));
    const rows = (workbook.getWorksheet(1)?.getSheetValues().slice(1) ?? []) as unknown[][];
    expect(rows).toHaveLength(2);
    const [headers = [], values = []] = rows.map((cells) => cells.slice(1));
    const cell = (name: string) => values[headers.indexOf(name)];
    expect(Buffer.from(String(cell('customer.name')))).toEqual(Buffer.from('سارة عبد الله'));
    expect(cell('amount')).toBe(150.55);
    expect(cell('businessReference')).toBe('X-1');
    expect(cell('sendingDate')).toEqual(new Date('2030-01-05T00:00:00.000Z'));
  });

  it("reads a sheet with links (Excel links an e-mail typed in a cell) and rows beyond the reader's buffers", async () => {
    const home = homeFor(sandbox, { timeZone: 'Africa/Cairo' });
    // Enough rows that the worksheet's part is more than a stream holds at once, so each part must be read to its end.
    const rows = Array.from({ length: 3000 }, (_, index) => row(`L-${index}`, { 7: { shared: `ملاحظة ${index}` } }));
    await writeHandMadeWorkbook(join(home, 'linked.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, ...rows] }],
      extra: {
        'xl/worksheets/_rels/sheet1.xml.rels':
          '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
          '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="mailto:sara@example.com" TargetMode="External"/>' +
          '</Relationships>',
      },
    });
    const result = await runInProcess(['create', 'single', '--file', 'linked.xlsx', '--dry-run', '--json'], { home });

    expect(result.code, result.stderr).toBe(0);
    const { records } = JSON.parse(result.stdout) as { records: Array<{ status: string; row: number }> };
    expect(records.filter((record) => record.status === 'valid')).toHaveLength(3000);
    expect(records.at(-1)?.row).toBe(3001);
  });

  it('reads the 1904 date system and a date-time cell as the wall clock of the profile zone', async () => {
    const home = homeFor(sandbox, { timeZone: 'Africa/Cairo' });
    const cells = row('X-1904', { 6: { date: excelSerial('2030-02-05', '18:30:00', true) } }, true);
    await writeHandMadeWorkbook(join(home, 'old-mac.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, cells] }],
      date1904: true,
    });
    const result = await runInProcess(['create', 'single', '--file', 'old-mac.xlsx', '--yes'], { home });

    expect(result.code, result.stderr).toBe(0);
    expect((await requests())[0]).toMatchObject({
      sendingDate: '2030-01-05',
      expiryDate: '2030-02-05T16:30:00.000Z',
    });
  });

  it('refuses =NA(), an error cell and a formula without its value, naming each cell, and sends nothing', async () => {
    const home = homeFor(sandbox);
    await writeHandMadeWorkbook(join(home, 'broken.xlsx'), {
      sheets: [
        { name: 'Other', rows: [[{ inline: 'not read' }]] },
        {
          name: 'Invoices',
          rows: [
            header,
            row('E-1'),
            row('E-2'),
            row('E-3', { 3: { formula: 'NA()', cached: '#N/A', type: 'e' } }),
            row('E-4', { 2: { error: '#VALUE!' } }),
            row('E-5', { 3: { formula: 'B2*2' } }),
          ],
        },
      ],
    });
    const result = await runInProcess(
      ['create', 'single', '--file', 'broken.xlsx', '--sheet', 'Invoices', '--yes', '--json'],
      { home },
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('row 4, column amount (Invoices!D4): is a formula whose value is an error');
    expect(result.stderr).toContain('row 5, column customer.mobile (Invoices!C5): is the error #VALUE!');
    expect(result.stderr).toContain('row 6, column amount (Invoices!D6)');
    expect(result.stderr).toContain('a formula without its value');
    expect((await received(sandbox)).count).toBe(0);
  });

  it('warns of a mobile stored as a number, whose leading 0 Excel dropped, and --strict refuses it', async () => {
    const home = homeFor(sandbox);
    await writeHandMadeWorkbook(join(home, 'numbers.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('M-1', { 2: { number: 1012345678 } })] }],
    });
    const result = await runInProcess(['create', 'single', '--file', 'numbers.xlsx', '--dry-run'], { home });

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('leading 0 a spreadsheet dropped (01012345678?)');

    const strict = await runInProcess(['create', 'single', '--file', 'numbers.xlsx', '--yes', '--strict'], { home });
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('1 record is invalid; nothing was sent.');
    expect(strict.stderr).toMatch(/row 2, column customer\.mobile \(Sheet1!C2\): .*leading 0 .*\(--strict\)/);
    expect((await received(sandbox)).count).toBe(0);
  });

  it('refuses a money value with more decimals than the currency, as Excel shows it', async () => {
    const home = homeFor(sandbox);
    await writeHandMadeWorkbook(join(home, 'decimals.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('D-1', { 3: { number: 150.555 } })] }],
    });
    const result = await runInProcess(['create', 'single', '--file', 'decimals.xlsx', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('(Sheet1!D2)');
    expect(result.stderr).toContain('at most two decimals');
    expect((await received(sandbox)).count).toBe(0);
  });
  it('refuses an amount a formula left a binary rounding from two decimals, saying what was read and how to round it', async () => {
    const home = homeFor(sandbox);
    await writeHandMadeWorkbook(join(home, 'computed.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('D-1', { 3: { number: '99.990000000000009' } })] }],
    });
    const result = await runInProcess(['create', 'single', '--file', 'computed.xlsx', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '(Sheet1!D2): must have at most two decimals: 99.99000000000001 is 99.99 as a computation left it; round it',
    );
    expect((await received(sandbox)).count).toBe(0);
  });

  it('refuses half a character (a lone surrogate written as a reference), never sending \uFFFD', async () => {
    const home = homeFor(sandbox);
    await writeHandMadeWorkbook(join(home, 'half.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('H-1', { 1: { sharedXml: 'Sara &#xD800;' } })] }],
    });
    const result = await runInProcess(['create', 'single', '--file', 'half.xlsx', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('half.xlsx is not a readable workbook');
    expect(result.stderr).toContain('&#xD800;');
    expect((await received(sandbox)).count).toBe(0);
  });
});

describe('a header that names no field', () => {
  it('is refused naming the cell, and points to the workbook template, whose header reads', async () => {
    const home = homeFor(sandbox);
    const typo = header.map((cell, index) => (index === 2 ? { shared: 'custmer.mobile' } : cell));
    await writeHandMadeWorkbook(join(home, 'typo.xlsx'), { sheets: [{ name: 'Sheet1', rows: [typo, row('H-1')] }] });
    const refused = await runInProcess(['create', 'single', '--file', 'typo.xlsx', '--dry-run'], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'column C "custmer.mobile" is not an invoice field; did you mean customer.mobile?',
    );
    const hinted = /; (einvoice template [^.]+) prints a workbook to start from\.\nsee: einvoice help excel/.exec(
      refused.stderr,
    )?.[1];
    expect(hinted).toBe('einvoice template single --format xlsx');

    // The command the hint names, followed literally, writes a workbook whose header this run reads.
    const template = await runInProcess([...(hinted as string).split(' ').slice(1), '--output', 'start.xlsx'], {
      home,
    });
    expect(template.code, template.stderr).toBe(0);
    const checked = await runInProcess(['create', 'single', '--file', 'start.xlsx', '--dry-run'], { home });
    expect(checked.stderr).not.toContain('header');
  });
});

describe('dates typed as text with slashes', () => {
  /** Rows whose date cells are text, as a merchant types `05/12/2030` into a column formatted as text. */
  const textDates = (reference: string, sending: string, expiry: string) =>
    row(reference, { 4: { shared: sending }, 5: { inline: sending }, 6: { shared: expiry } });

  it("A workbook's slash dates: the hint, followed literally, gets a clean dry run", async () => {
    const home = homeFor(sandbox, { timeZone: 'Africa/Cairo' });
    await writeHandMadeWorkbook(join(home, 'invoices.xlsx'), {
      sheets: [
        {
          name: 'Orders',
          rows: [header, textDates('T-1', '05/12/2030', '31/12/2030'), textDates('T-2', '6/1/2031', '1/2/2031')],
        },
      ],
    });
    const command = ['create', 'single', '--file', 'invoices.xlsx', '--dry-run'];
    const first = await runInProcess(command, { home });
    expect(first.code).toBe(2);
    // One line for the cause, naming each date column once, as the workbook names its columns.
    expect(first.stderr).toContain(
      'rows 2-3: column sendingDate (Orders!E), column releaseDate (Orders!F), column expiryDate (Orders!G): a date with slashes is read only as declared, with --date-format DD/MM/YYYY',
    );
    const hinted = /with (--date-format \S+)/.exec(first.stderr)?.[1];
    expect(hinted).toBe('--date-format DD/MM/YYYY');

    const followed = await runInProcess([...command, ...(hinted as string).split(' ')], { home });
    expect(followed.code, followed.stderr).toBe(0);
    expect(followed.stderr).toContain('valid, would be sent  2');
    expect(followed.stderr).not.toMatch(/warning|invalid;|✖/);

    const sent = await runInProcess(
      ['create', 'single', '--file', 'invoices.xlsx', '--yes', '--date-format', 'DD/MM/YYYY'],
      { home },
    );
    expect(sent.code, sent.stderr).toBe(0);
    const byReference = new Map((await requests()).map((request) => [request.businessReference, request]));
    // Day first, as declared; the days of Cairo (UTC+2 in winter).
    expect(byReference.get('T-1')).toMatchObject({
      sendingDate: '2030-12-05',
      releaseDate: '2030-12-04T22:00:00.000Z',
      expiryDate: '2030-12-31T21:59:59.999Z',
    });
    expect(byReference.get('T-2')).toMatchObject({ sendingDate: '2031-01-06', expiryDate: '2031-02-01T21:59:59.999Z' });
  });

  it('reads a date cell as the date it is, whatever --date-format says', async () => {
    const home = homeFor(sandbox, { timeZone: 'Africa/Cairo' });
    await writeHandMadeWorkbook(join(home, 'mixed.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('D-1', { 6: { shared: '05/02/2030' } })] }],
    });
    const result = await runInProcess(
      ['create', 'single', '--file', 'mixed.xlsx', '--yes', '--date-format', 'DD/MM/YYYY'],
      { home },
    );
    expect(result.code, result.stderr).toBe(0);
    expect((await requests())[0]).toMatchObject({ sendingDate: '2030-01-05', expiryDate: '2030-02-05T21:59:59.999Z' });
  });
});

describe('what else a cell or a sheet holds', () => {
  it('reads a formula by its saved value, TRUE and FALSE as booleans, and skips blank rows before and between', async () => {
    const home = homeFor(sandbox, { timeZone: 'Africa/Cairo' });
    await writeHandMadeWorkbook(join(home, 'formulas.xlsx'), {
      sheets: [
        {
          name: 'Sheet1',
          rows: [
            [],
            [null, null],
            [...header, { shared: 'alertMerchantUponExpiry' }],
            row('F-1', {
              3: { formula: '100.1+100.15', cached: '200.25' },
              7: { formula: '"Rent "&"Jan"', cached: 'Rent Jan', type: 'str' },
              8: { bool: true },
            }),
            [],
            row('F-2', { 8: { bool: false } }),
          ],
        },
      ],
    });
    const result = await runInProcess(['create', 'single', '--file', 'formulas.xlsx', '--yes', '--json'], { home });

    expect(result.code, result.stderr).toBe(0);
    const { records } = JSON.parse(result.stdout) as { records: Array<{ row: number; status: string }> };
    expect(records.map((record) => [record.row, record.status])).toEqual([
      [4, 'created'],
      [6, 'created'],
    ]);
    const sent = await requests();
    expect(sent.find((request) => request.businessReference === 'F-1')).toMatchObject({
      amount: 200.25,
      note: 'Rent Jan',
      alertMerchantUponExpiry: true,
    });
    expect(sent.find((request) => request.businessReference === 'F-2')).toMatchObject({
      alertMerchantUponExpiry: false,
    });
  });

  it('reads the first worksheet as Excel orders its tabs, and names the worksheets when --sheet names none; one without a header is refused', async () => {
    const home = homeFor(sandbox);
    const book = {
      // The parts in one order (sheet1.xml is "Archive"), the tabs in the other: "Invoices" first.
      sheets: [
        { name: 'Archive', rows: [header, row('T-ARCHIVE')] },
        { name: 'Invoices', rows: [header, row('T-FIRST-TAB')] },
      ],
      extra: {
        'xl/workbook.xml':
          '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
          '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
          '<workbookPr/><sheets><sheet name="Invoices" sheetId="2" r:id="rId2"/><sheet name="Archive" sheetId="1" r:id="rId1"/></sheets></workbook>',
      },
    };
    await writeHandMadeWorkbook(join(home, 'tabs.xlsx'), book);
    const result = await runInProcess(['create', 'single', '--file', 'tabs.xlsx', '--dry-run', '--json'], { home });
    expect(result.code, result.stderr).toBe(0);
    const { records } = JSON.parse(result.stdout) as { records: Array<{ businessReference: string }> };
    expect(records.map((record) => record.businessReference)).toEqual(['T-FIRST-TAB']);

    const missing = await runInProcess(['create', 'single', '--file', 'tabs.xlsx', '--sheet', 'December', '--yes'], {
      home,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--file tabs.xlsx has no worksheet named "December"; nothing was sent.');
    expect(missing.stderr).toContain('"Archive"');
    expect(missing.stderr).toContain('"Invoices"');

    await writeHandMadeWorkbook(join(home, 'blank.xlsx'), { sheets: [{ name: 'Sheet1', rows: [[], [null]] }] });
    const blank = await runInProcess(['create', 'single', '--file', 'blank.xlsx', '--yes'], { home });
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('--file blank.xlsx: the worksheet Sheet1 has no header row; nothing was sent.');
    expect((await received(sandbox)).count).toBe(0);
  });

  it("reads a formula that refers to another workbook by its saved value, fetching nothing from the link's address", async () => {
    const home = homeFor(sandbox);
    const elsewhere = await startTestServer();
    try {
      await writeHandMadeWorkbook(join(home, 'linked.xlsx'), {
        sheets: [
          { name: 'Sheet1', rows: [header, row('X-LINK', { 3: { formula: '[1]Prices!B2', cached: '175.5' } })] },
        ],
        extra: {
          'xl/externalLinks/externalLink1.xml':
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
            '<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
            '<externalBook r:id="rId1"><sheetNames><sheetName val="Prices"/></sheetNames>' +
            '<sheetDataSet><sheetData sheetId="0"><row r="2"><cell r="B2"><v>175.5</v></cell></row></sheetData></sheetDataSet>' +
            '</externalBook></externalLink>',
          'xl/externalLinks/_rels/externalLink1.xml.rels':
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
            `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLinkPath" Target="${elsewhere.url}/prices.xlsx" TargetMode="External"/>` +
            '</Relationships>',
          'xl/_rels/workbook.xml.rels':
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
            '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
            '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' +
            '<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLink" Target="externalLinks/externalLink1.xml"/>' +
            '</Relationships>',
          'xl/workbook.xml':
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
            '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
            '<workbookPr/><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets>' +
            '<externalReferences><externalReference r:id="rId4"/></externalReferences></workbook>',
        },
      });
      const result = await runInProcess(['create', 'single', '--file', 'linked.xlsx', '--yes'], { home });

      expect(result.code, result.stderr).toBe(0);
      expect((await requests())[0]).toMatchObject({ businessReference: 'X-LINK', amount: 175.5 });
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('a workbook of recurring invoices', () => {
  it('creates each plan: its cycle and discount from number cells, the dates from date cells', async () => {
    const home = homeFor(sandbox, { timeZone: 'Africa/Cairo' });
    const plan: HandCell[] = [
      ...['cycleType', 'cycleValue', 'discount.value', 'discount.type'].map((name) => ({ shared: name })),
      ...header,
    ];
    const planRow = (reference: string, cycle: string, every: number): HandCell[] => [
      { shared: cycle },
      { number: every },
      { number: 10 },
      { inline: 'FLAT' },
      ...row(reference),
    ];
    await writeHandMadeWorkbook(join(home, 'plans.xlsx'), {
      sheets: [{ name: 'Plans', rows: [plan, planRow('P-1', 'MONTH', 1), planRow('P-2', 'WEEK', 2)] }],
    });
    const result = await runInProcess(['create', 'recurring', '--file', 'plans.xlsx', '--yes', '--json'], { home });

    expect(result.code, result.stderr).toBe(0);
    const invoices = await sandbox.api.invoices();
    expect(invoices.map((invoice) => invoice.kind)).toEqual(['recurring', 'recurring']);
    const sent = await requests();
    expect(sent.find((request) => request.businessReference === 'P-2')).toMatchObject({
      cycleType: 'WEEK',
      cycleValue: 2,
      discount: { value: 10, type: 'FLAT' },
      customer: { name: 'سارة عبد الله', mobile: '01011112222' },
      amount: 150.55,
      sendingDate: '2030-01-05',
      releaseDate: '2030-01-04T22:00:00.000Z',
    });
  });
});

describe('a bulk run with --report r.xlsx', () => {
  it('writes a workbook with one row per record: typed cells under a frozen header', async () => {
    const home = homeFor(sandbox);
    await writeHandMadeWorkbook(join(home, 'invoices.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('R-1'), row('R-2', { 3: { error: '#N/A' } }), row('R-3')] }],
    });
    const result = await runInProcess(
      ['create', 'single', '--file', 'invoices.xlsx', '--skip-invalid', '--report', 'r.xlsx', '--yes'],
      { home },
    );

    expect(result.code, result.stderr).toBe(6);
    const report = new Workbook();
    await report.xlsx.readFile(join(home, 'r.xlsx'));
    const sheet = report.getWorksheet(1);
    const rows = sheet?.getSheetValues().slice(1) as unknown[][];
    expect(rows.map((cells) => cells.slice(1, 5))).toEqual([
      ['record', 'row', 'businessReference', 'status'],
      [1, 2, 'R-1', 'created'],
      [2, 3, 'R-2', 'invalid'],
      [3, 4, 'R-3', 'created'],
    ]);
    expect(String(rows[2]?.[6])).toContain('amount: is the error #N/A');
    expect(sheet?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(statSync(join(home, 'r.xlsx')).mode & 0o777).toBe(0o600);
  });
});

describe("the dashboard's batch upload sheet", () => {
  it('creates its rows with the dates given by flags', async () => {
    const home = homeFor(sandbox);
    const workbook = new Workbook();
    const sheet = workbook.addWorksheet('Sheet1');
    sheet.addRow([
      'Customer Name',
      'Customer Mobile Number',
      'Customer Email',
      'Invoice Amount',
      'Businesses reference number',
      'Note',
    ]);
    sheet.addRow(['محمد علي', '01001234567', 'm@example.com', 250, 'DASH-1', 'Rent']);
    sheet.addRow(['Mona Adel', '01201234567', '', 99.5, 'DASH-2', 'Plan']);
    await workbook.xlsx.writeFile(join(home, 'upload.xlsx'));
    const result = await runInProcess(
      [
        'create',
        'single',
        '--file',
        'upload.xlsx',
        '--sending-date',
        'today',
        '--release-date',
        'today',
        '--expiry-date',
        '+30d',
        '--yes',
      ],
      { home },
    );

    expect(result.code, result.stderr).toBe(0);
    const sent = await requests();
    expect(sent.map((request) => request.businessReference).sort()).toEqual(['DASH-1', 'DASH-2']);
    expect(sent.find((request) => request.businessReference === 'DASH-1')).toMatchObject({
      customer: { name: 'محمد علي', mobile: '01001234567', email: 'm@example.com' },
      amount: 250,
      note: 'Rent',
    });
  });
});

describe('a workbook that must not be read', () => {
  for (const macro of ['vba-project', 'content-type'] as const) {
    it(`refuses a macro workbook (${macro}) before reading it`, async () => {
      const home = homeFor(sandbox);
      await writeHandMadeWorkbook(join(home, 'macro.xlsm'), {
        sheets: [{ name: 'Sheet1', rows: [header, row('V-1')] }],
        macro,
      });
      const result = await runInProcess(['create', 'single', '--file', 'macro.xlsm', '--yes'], { home });

      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--file macro.xlsm was not read: it is a macro workbook');
      expect((await received(sandbox)).count).toBe(0);
    });
  }

  it('refuses a zip bomb: a part that unpacks to far more than its size', async () => {
    const home = homeFor(sandbox);
    await writeHandMadeWorkbook(join(home, 'bomb.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('B-1')] }],
      extra: { 'xl/media/padding.xml': ' '.repeat(64 * 1024 ** 2) },
    });
    const result = await runInProcess(['create', 'single', '--file', 'bomb.xlsx', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('zip bomb');
    expect((await received(sandbox)).count).toBe(0);
  });

  it('refuses a zip bomb by its directory: parts that say they unpack to more than 4 GiB in all', async () => {
    const home = homeFor(sandbox);
    const bytes = await handMadeWorkbook({
      sheets: [{ name: 'Sheet1', rows: [header, row('B-2')] }],
      // Large enough to be packed (deflated), not stored: a stored part's two sizes must agree.
      extra: { 'xl/media/a.xml': `<a>${' '.repeat(4096)}</a>`, 'xl/media/b.xml': `<b>${' '.repeat(4096)}</b>` },
    });
    // 3 GiB each from 16 MiB: each within the ratio a part may unpack to, the two together past 4 GiB.
    const declared = { packed: 16 * 1024 ** 2, unpacked: 3 * 1024 ** 3 };
    writeFileSync(
      join(home, 'bomb.xlsx'),
      withDeclaredSizes(bytes, { 'xl/media/a.xml': declared, 'xl/media/b.xml': declared }),
    );
    const result = await runInProcess(['create', 'single', '--file', 'bomb.xlsx', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--file bomb.xlsx was not read: its parts unpack to more than 6.0 GiB');
    expect(result.stderr).toContain('zip bomb');
    expect((await received(sandbox)).count).toBe(0);
  });

  it('refuses a table of texts that says it unpacks to more than 160 MiB, before reading it', async () => {
    const home = homeFor(sandbox);
    const bytes = await handMadeWorkbook({
      sheets: [{ name: 'Sheet1', rows: [header, row('S-1', { 7: { shared: 'note '.repeat(1000) } })] }],
    });
    writeFileSync(
      join(home, 'texts.xlsx'),
      withDeclaredSizes(bytes, { 'xl/sharedStrings.xml': { packed: 2 * 1024 ** 2, unpacked: 200 * 1024 ** 2 } }),
    );
    const result = await runInProcess(['create', 'single', '--file', 'texts.xlsx', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('its table of texts (shared strings) unpacks to more than 160 MiB');
    expect((await received(sandbox)).count).toBe(0);
  });

  // A crafted zip tells a smaller size than its part unpacks to (10 KiB for 600 MB): the workbook reader would trust
  // the part's own header and unpack it all. Every part is unpacked and counted first.
  for (const part of ['xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml']) {
    it(`refuses a workbook whose zip directory understates what ${part} unpacks to, naming the part`, async () => {
      const home = homeFor(sandbox);
      const rows = [header, ...Array.from({ length: 400 }, (_, index) => row(`L-${index}`))];
      const bytes = await handMadeWorkbook({ sheets: [{ name: 'Sheet1', rows }] });
      writeFileSync(join(home, 'lying.xlsx'), withDeclaredSizes(bytes, { [part]: { unpacked: 10 * 1024 } }));
      const result = await runInProcess(['create', 'single', '--file', 'lying.xlsx', '--yes'], { home });

      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `--file lying.xlsx was not read: its part ${part} unpacks to more than the 10 KiB its zip directory declares, as a zip bomb does`,
      );
      expect((await received(sandbox)).count).toBe(0);
    });
  }

  it('refuses a cell longer than Excel holds: in the XML before reading, and as the reader gives it, by its cell', async () => {
    const home = homeFor(sandbox);
    // Past what any 32,767 characters take in the XML: refused before the reader makes it one string.
    await writeHandMadeWorkbook(join(home, 'huge-cell.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('C-1'), row('C-2', { 7: { inline: 'x'.repeat(229_400) } })] }],
    });
    const huge = await runInProcess(['create', 'single', '--file', 'huge-cell.xlsx', '--yes'], { home });
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain(
      '--file huge-cell.xlsx was not read: its cell H3 (xl/worksheets/sheet1.xml) holds more than the 32,767 characters a cell of Excel holds',
    );
    await writeHandMadeWorkbook(join(home, 'huge-text.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('C-3', { 7: { shared: 'y'.repeat(300_000) } })] }],
    });
    const text = await runInProcess(['create', 'single', '--file', 'huge-text.xlsx', '--yes'], { home });
    expect(text.code).toBe(2);
    expect(text.stderr).toContain(
      'a text of its table of texts (shared strings) holds more than the 32,767 characters',
    );

    // Within what the XML may take, longer than a cell holds: the record is refused by its cell, with the others.
    await writeHandMadeWorkbook(join(home, 'long-cell.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('C-4'), row('C-5', { 7: { shared: 'z'.repeat(40_000) } })] }],
    });
    const long = await runInProcess(['create', 'single', '--file', 'long-cell.xlsx', '--yes'], { home });
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(
      /row 3, column note \(Sheet1!H3\): is 40,000 characters long, more than the 32,767 characters a cell of Excel holds/,
    );
    expect((await received(sandbox)).count).toBe(0);
  });

  it('says how to read a workbook given another name, reads it with --format xlsx, and says stdin cannot hold one', async () => {
    const home = homeFor(sandbox);
    const path = await writeHandMadeWorkbook(join(home, 'invoices.dat'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('N-1')] }],
    });
    const named = await runInProcess(['create', 'single', '--file', 'invoices.dat', '--yes'], { home });
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('as an Excel workbook is: give its path with --format xlsx');
    const told = await runInProcess(['create', 'single', '--file', 'invoices.dat', '--format', 'xlsx', '--yes'], {
      home,
    });
    expect(told.code, told.stderr).toBe(0);
    expect((await requests()).map((request) => request.businessReference)).toEqual(['N-1']);
    await sandbox.api.reset(false);

    const piped = await runInProcess(['create', 'single', '--file', '-', '--format', 'xlsx', '--yes'], {
      home,
      input: readFileSync(path),
    });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('A workbook is read from a file, not from stdin');
    expect((await received(sandbox)).count).toBe(0);
  });

  it('refuses a workbook whose worksheet is broken, in words, without a stack trace', async () => {
    const home = homeFor(sandbox);
    await writeHandMadeWorkbook(join(home, 'broken.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('K-1')] }],
      extra: { 'xl/worksheets/sheet1.xml': '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row>' },
    });
    const result = await runInProcess(['create', 'single', '--file', 'broken.xlsx', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--file broken.xlsx is not a readable workbook');
    expect((await received(sandbox)).count).toBe(0);
  });

  it('refuses a cell that points past the table of texts, in words, sending nothing', async () => {
    const home = homeFor(sandbox);
    await writeHandMadeWorkbook(join(home, 'short-table.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [header, row('T-1')] }],
      extra: {
        'xl/sharedStrings.xml':
          '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
          '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>x</t></si></sst>',
      },
    });
    const result = await runInProcess(['create', 'single', '--file', 'short-table.xlsx', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('short-table.xlsx is not a readable workbook: a cell refers to a text');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect((await received(sandbox)).count).toBe(0);
  });

  it('refuses a file that is no workbook, and a workbook without a worksheet', async () => {
    const home = homeFor(sandbox);
    const path = join(home, 'old.xlsx');
    writeFileSync(path, 'name,amount\nA,1\n');
    const result = await runInProcess(['create', 'single', '--file', 'old.xlsx', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('not an Excel workbook');

    await writeHandMadeWorkbook(join(home, 'empty.xlsx'), { sheets: [] });
    const empty = await runInProcess(['create', 'single', '--file', 'empty.xlsx', '--yes'], { home });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(
      '--file empty.xlsx was not read: it is not an Excel workbook (.xlsx): it has no worksheet',
    );
    expect((await received(sandbox)).count).toBe(0);
  });
});
