import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { savedIn } from '../helpers/code-pages.js';
import { homeFor } from '../helpers/profile.js';

// Text arrives in the encoding it was saved in, or is refused: a sheet Excel saved as "CSV (Comma delimited)" on an
// Arabic Windows, a JSON file in Windows-1256, a lone surrogate, a profile with bytes that are not UTF-8 (a flag's
// bytes: test/e2e/encodings.test.ts).

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.api.reset(false));

/** `text` saved in Windows-1256, as Excel on an Arabic Windows writes it. */
function inWindows1256(text: string): Buffer {
  return savedIn('windows-1256', text);
}

/** A sheet as Excel's "CSV (Comma delimited)" writes it on an Arabic Windows: Windows-1256, CRLF, no BOM. */
const arabicSheet = inWindows1256(
  [
    'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note,communicationMethod',
    'INV-1,محمد علي,+201155512345,499,2030-01-01,2030-01-01,2030-02-01,اشتراك شهري,SMS',
    'INV-2,سارة أحمد,+201098765432,150,2030-01-01,2030-01-01,2030-02-01,Delivery,SMS',
  ].join('\r\n') + '\r\n',
);

const oneInvoice = {
  customer: { name: 'Mona Adel', mobile: '+201001234567' },
  amount: 100,
  sendingDate: '2030-01-01',
  releaseDate: '2030-01-01T00:00:00.000Z',
  expiryDate: '2030-02-01T23:59:59.999Z',
  note: 'Order 1',
  communicationMethod: 'SMS',
  paymentType: 'PUSH_TO_CUSTOMER',
};

describe('a sheet saved in Windows-1256', () => {
  it('is refused before anything is sent, naming UTF-8, Windows-1256, the rows and columns, and the way out', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), arabicSheet);
    const result = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--file sheet.csv is not UTF-8 text: line 2 holds bytes that are not UTF-8');
    // The same cause in the same column of two rows is one line naming both.
    expect(result.stderr).toContain('rows 2-3: column customer.name (B): holds characters that could not be read');
    expect(result.stderr).toContain('row 2, column note (H)');
    expect(result.stderr).toContain(
      "This sheet looks like it was saved as 'CSV (Comma delimited)' on an Arabic Windows (Windows-1256): save it as 'CSV UTF-8', or pass --encoding windows-1256.",
    );
    expect(result.stderr).not.toContain('\uFFFD\uFFFD');
    expect((await received(sandbox)).count).toBe(0);
  });

  it('is refused whole even with --skip-invalid: every record was read in the wrong encoding', async () => {
    const home = homeFor(sandbox);
    // The second row holds no Arabic: it decodes, yet it was saved in the same wrong encoding as the first.
    writeFileSync(join(home, 'sheet.csv'), arabicSheet);
    const result = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes', '--skip-invalid'], {
      home: home,
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nothing was sent');
    expect((await received(sandbox)).count).toBe(0);
  });

  it('with --encoding windows-1256, creates each invoice with the names exactly as typed', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), arabicSheet);
    const result = await runInProcess(
      ['create', 'single', '--file', 'sheet.csv', '--yes', '--encoding', 'windows-1256'],
      { home },
    );

    expect(result.code, result.stderr).toBe(0);
    const requests = (await sandbox.api.invoices()).map((invoice) => invoice.request as typeof oneInvoice);
    expect(requests.map((request) => [request.customer.name, request.note])).toEqual([
      ['محمد علي', 'اشتراك شهري'],
      ['سارة أحمد', 'Delivery'],
    ]);
  });

  it('read as ISO-8859-6 where it has letters that are none there, is refused naming Windows-1256', async () => {
    const home = homeFor(sandbox);
    // Some bytes of Arabic letters in Windows-1256 (0xDF, ك of اشتراك) are no character at all in ISO-8859-6.
    writeFileSync(join(home, 'sheet.csv'), arabicSheet);
    const result = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--encoding', 'iso-8859-6'], {
      home: home,
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--file sheet.csv is Windows-1256 text, not ISO-8859-6');
    expect(result.stderr).toContain('(اشتراك in Windows-1256, ');
    expect((await received(sandbox)).count).toBe(0);
  });
});

describe('Arabic in the wrong one of the two Arabic code pages', () => {
  /** Names whose every byte is a letter in both code pages: read in the other, they are other names. */
  const names = ['محمد علي', 'أحمد حسن', 'منى خالد'];
  const sheetOf = (encoding: 'windows-1256' | 'iso-8859-6', rows: string[]) =>
    savedIn(
      encoding,
      [
        'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note',
        ...rows.map(
          (name, index) => `W-${index + 1},${name},+2010012345${index}0,100,2030-01-01,2030-01-01,2030-02-01,Order`,
        ),
      ].join('\r\n') + '\r\n',
    );

  it('A Windows-1256 sheet of Arabic names declared `--encoding iso-8859-6`: refused, nothing sent.', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'names.csv'), sheetOf('windows-1256', names));
    for (const args of [['--yes'], ['--yes', '--skip-invalid'], ['--dry-run']]) {
      const result = await runInProcess(
        ['create', 'single', '--file', 'names.csv', '--encoding', 'iso-8859-6', ...args],
        { home },
      );
      expect(result.code, result.stderr).toBe(2);
      // No byte is amiss, yet no word reads as ISO-8859-6 alone: the first word is shown as each reads it.
      expect(result.stderr).toContain(
        '✖ --file names.csv may be Windows-1256 text rather than ISO-8859-6: its Arabic reads as words in both, in other letters (line 2: محمد in Windows-1256, كحكد in ISO-8859-6), and no word of it is Arabic in ISO-8859-6 alone; nothing was sent.',
      );
      expect(result.stderr).toContain(
        'Arabic Excel writes Windows-1256: pass --encoding windows-1256 if the first reads right',
      );
    }
    expect((await received(sandbox)).count).toBe(0);

    // A word with ي inside (سيد) is no Arabic word in ISO-8859-6: the sheet is Windows-1256, for certain.
    writeFileSync(join(home, 'more.csv'), sheetOf('windows-1256', [...names, 'سيد رجب']));
    const proven = await runInProcess(['create', 'single', '--file', 'more.csv', '--encoding', 'iso-8859-6', '--yes'], {
      home,
    });
    expect(proven.code).toBe(2);
    expect(proven.stderr).toContain(
      '✖ --file more.csv is Windows-1256 text, not ISO-8859-6: read as ISO-8859-6, line 5 would become other letters (سيد in Windows-1256, سٍد in ISO-8859-6); nothing was sent.',
    );
    expect((await received(sandbox)).count).toBe(0);

    const declared = await runInProcess(
      ['create', 'single', '--file', 'more.csv', '--encoding', 'windows-1256', '--yes'],
      { home },
    );
    expect(declared.code, declared.stderr).toBe(0);
    const sent = (await sandbox.api.invoices()).map((invoice) => (invoice.request as typeof oneInvoice).customer.name);
    expect(sent.sort()).toEqual([...names, 'سيد رجب'].sort());
  });

  it('shows in a dry run a few names as they will be sent, Arabic first, whatever cannot be seen escaped', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'names.csv'), sheetOf('windows-1256', ['Amr Hassan', ...names, 'Mona\u200e Adel']));
    const result = await runInProcess(
      ['create', 'single', '--file', 'names.csv', '--encoding', 'windows-1256', '--dry-run'],
      { home },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'Names as they will be sent: "محمد علي", "أحمد حسن", "منى خالد" (of the 5 records to send).',
    );
    // Read in the wrong one of the two code pages, it is refused before any name is shown.
    const wrong = await runInProcess(
      ['create', 'single', '--file', 'names.csv', '--encoding', 'iso-8859-6', '--dry-run'],
      {
        home,
      },
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).not.toContain('Names as they will be sent');

    writeFileSync(join(home, 'latin.csv'), sheetOf('windows-1256', ['Mona\u200e Adel']));
    const latin = await runInProcess(
      ['create', 'single', '--file', 'latin.csv', '--encoding', 'windows-1256', '--dry-run'],
      {
        home,
      },
    );
    expect(latin.stderr).toContain('Names as they will be sent: "Mona\\u200E Adel".');
  });

  it('reads an ISO-8859-6 sheet that shows itself so, with the names exactly as written', async () => {
    const home = homeFor(sandbox);
    // علي is ظنê in Windows-1256: a Latin letter among Arabic ones is no Arabic word.
    writeFileSync(join(home, 'iso.csv'), sheetOf('iso-8859-6', names));
    const result = await runInProcess(['create', 'single', '--file', 'iso.csv', '--encoding', 'iso-8859-6', '--yes'], {
      home,
    });
    expect(result.code, result.stderr).toBe(0);
    const sent = (await sandbox.api.invoices()).map((invoice) => (invoice.request as typeof oneInvoice).customer.name);
    expect(sent.sort()).toEqual([...names].sort());
  });
});

describe('a UTF-8 sheet read with --encoding windows-1256', () => {
  // The flag left in a merchant's script from an older sheet: read as Windows-1256, UTF-8 Arabic would become other
  // letters (no U+FFFD), and customers would read them.
  const utf8Sheet = new TextDecoder('windows-1256').decode(arabicSheet);

  for (const [saved, bytes] of [
    ['without a byte order mark (LibreOffice, Google Sheets)', Buffer.from(utf8Sheet)],
    ["with one (Excel's 'CSV UTF-8')", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(utf8Sheet)])],
  ] as const) {
    it(`is refused, ${saved}, naming UTF-8 and the way out; nothing is sent`, async () => {
      const home = homeFor(sandbox);
      writeFileSync(join(home, 'sheet.csv'), bytes);
      const result = await runInProcess(
        ['create', 'single', '--file', 'sheet.csv', '--encoding', 'windows-1256', '--yes'],
        { home },
      );
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('--file sheet.csv is UTF-8 text, not Windows-1256');
      expect(result.stderr).toContain('Drop --encoding windows-1256: UTF-8 is read without it.');
      expect((await received(sandbox)).count).toBe(0);
    });
  }

  it('the same sheet without the flag creates each invoice with the names exactly as typed', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), Buffer.from(utf8Sheet));
    const result = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes'], { home });
    expect(result.code, result.stderr).toBe(0);
    const names = (await sandbox.api.invoices()).map((invoice) => (invoice.request as typeof oneInvoice).customer.name);
    expect(names).toEqual(expect.arrayContaining(['محمد علي', 'سارة أحمد']));
  });
});

describe('UTF-16 and byte order marks', () => {
  it('reads a UTF-16 sheet with its byte order mark without a flag (Excel\'s "Unicode Text", tab-separated)', async () => {
    const home = homeFor(sandbox);
    const text = [
      'businessReference\tcustomer.name\tcustomer.mobile\tamount\tsendingDate\treleaseDate\texpiryDate\tnote',
      'INV-1\tسارة أحمد\t+201001234567\t99.5\t2030-01-01\t2030-01-01\t2030-02-01\tRent',
    ].join('\r\n');
    writeFileSync(join(home, 'sheet.csv'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const result = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes'], { home });

    expect(result.code, result.stderr).toBe(0);
    expect(((await received(sandbox)).last?.request as typeof oneInvoice).customer.name).toBe('سارة أحمد');
  });

  it('reads a UTF-16BE JSON invoice without a mark, and a UTF-8 one with its mark, as before', async () => {
    const home = homeFor(sandbox);
    const json = JSON.stringify({ ...oneInvoice, customer: { ...oneInvoice.customer, name: 'محمد' } });
    writeFileSync(join(home, 'be.json'), Buffer.from(json, 'utf16le').swap16());
    writeFileSync(join(home, 'bom.json'), `\uFEFF${JSON.stringify({ ...oneInvoice, note: 'Order 2' })}`);

    expect((await runInProcess(['create', 'single', '--file', 'be.json', '--yes'], { home })).code).toBe(0);
    expect((await runInProcess(['create', 'single', '--file', 'bom.json', '--yes'], { home })).code).toBe(0);
    const requests = (await sandbox.api.invoices()).map((invoice) => invoice.request as typeof oneInvoice);
    expect(requests.map((request) => [request.customer.name, request.note])).toEqual([
      ['محمد', 'Order 1'],
      ['Mona Adel', 'Order 2'],
    ]);
  });
});

describe('JSON that cannot be sent as text', () => {
  it('refuses a JSON invoice with bytes that are not UTF-8, naming the field, the line and Windows-1256', async () => {
    const home = homeFor(sandbox);
    const json = JSON.stringify({ ...oneInvoice, customer: { ...oneInvoice.customer, name: 'محمد علي' } }, null, 2);
    writeFileSync(join(home, 'invoice.json'), inWindows1256(json));
    const result = await runInProcess(['create', 'single', '--file', 'invoice.json', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--file invoice.json is not UTF-8 text: line 3 holds bytes that are not UTF-8');
    expect(result.stderr).toContain('customer.name: holds bytes that could not be read as text');
    expect(result.stderr).toContain('Windows-1256 (Arabic Windows): save it as UTF-8, or pass --encoding windows-1256');
    expect((await received(sandbox)).count).toBe(0);
  });

  it('refuses the same bytes on stdin, and reads them with --encoding windows-1256', async () => {
    const home = homeFor(sandbox);
    const bytes = inWindows1256(JSON.stringify({ ...oneInvoice, note: 'طلب' }));
    const refused = await runInProcess(['create', 'single', '--file', '-', '--yes'], { home, input: bytes });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--file stdin is not UTF-8 text');
    expect(refused.stderr).toContain('note: holds bytes that could not be read as text');
    expect((await received(sandbox)).count).toBe(0);

    const read = await runInProcess(['create', 'single', '--file', '-', '--yes', '--encoding', 'windows-1256'], {
      home: home,
      input: bytes,
    });
    expect(read.code, read.stderr).toBe(0);
    expect(((await received(sandbox)).last?.request as typeof oneInvoice).note).toBe('طلب');
  });

  it('refuses an NDJSON record with such bytes by record and line, and sends none of the others', async () => {
    const home = homeFor(sandbox);
    const lines = [
      JSON.stringify({ ...oneInvoice, businessReference: 'A-1' }),
      JSON.stringify({ ...oneInvoice, businessReference: 'A-2', note: 'طلب' }),
    ];
    writeFileSync(
      join(home, 'invoices.ndjson'),
      Buffer.concat([Buffer.from(`${lines[0]}\n`), inWindows1256(`${lines[1]}\n`)]),
    );
    const result = await runInProcess(['create', 'single', '--file', 'invoices.ndjson', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('line 2 holds bytes that are not UTF-8');
    expect(result.stderr).toContain('record 2 (line 2): note: holds characters that could not be read');
    expect((await received(sandbox)).count).toBe(0);
  });

  it('refuses a lone surrogate ("\\ud800" in JSON) with its field path, and sends nothing', async () => {
    const home = homeFor(sandbox);
    const json = JSON.stringify(oneInvoice).replace('"Mona Adel"', '"Mona \\ud800Adel"');
    writeFileSync(join(home, 'invoice.json'), json);
    const one = await runInProcess(['create', 'single', '--file', 'invoice.json', '--yes'], { home });
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('  customer.name: holds a lone surrogate (U+D800), half of a character');

    writeFileSync(join(home, 'invoices.ndjson'), `${JSON.stringify(oneInvoice)}\n${json}\n`);
    const many = await runInProcess(['create', 'single', '--file', 'invoices.ndjson', '--yes'], { home });
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('record 2 (line 2): customer.name: holds a lone surrogate (U+D800)');
    expect((await received(sandbox)).count).toBe(0);
  });
});

describe('flags and profiles', () => {
  it('refuses a profile file with bytes that are not UTF-8, naming the key', async () => {
    const home = homeFor(sandbox);
    const profile = JSON.stringify({ defaults: { preferredPaymentMethod: 'بطاقة' } });
    writeFileSync(join(home, '.einvoicerc.json'), inWindows1256(profile), { mode: 0o600 });
    writeFileSync(join(home, 'invoice.json'), JSON.stringify(oneInvoice));
    const result = await runInProcess(['create', 'single', '--file', 'invoice.json', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('defaults.preferredPaymentMethod: holds characters that could not be read');
    expect((await received(sandbox)).count).toBe(0);
  });
});

describe('a sheet saved in the wrong encoding, with problems of its own', () => {
  const rows = (header: string, amount: string, date: string) =>
    inWindows1256(
      [
        header,
        'P-1,محمد علي,+201155512345,499,2030-01-01,2030-01-01,2030-02-01,اشتراك شهري',
        `P-2,سارة أحمد,+201098765432,${amount},2030-01-01,2030-01-01,2030-02-01,Delivery`,
        `P-3,يوسف,+201001234567,100,${date},2030-01-01,2030-02-01,Order`,
      ].join('\r\n') + '\r\n',
    );
  const header = 'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note';

  it('tells its header and rows as read in the encoding it most likely is in, so one run shows all there is to correct', async () => {
    // The header names no field, a row has an amount of three decimals, another a date with slashes.
    const home = homeFor(sandbox);
    writeFileSync(
      join(home, 'sheet.csv'),
      rows(header.replace('customer.mobile', 'custmer.mobile'), '12.345', '05/01/2030'),
    );
    const first = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes'], { home });

    expect(first.code).toBe(2);
    expect(first.stderr.split('\n').slice(0, 5)).toEqual([
      '✖ --file sheet.csv is not UTF-8 text: line 2 holds bytes that are not UTF-8 (from byte 100); nothing was sent.',
      '  header (row 1): column C "custmer.mobile" is not an invoice field; did you mean customer.mobile?',
      '  row 3, column amount (D): must have at most two decimals',
      '  row 4, column sendingDate (E): is 05/01/2030: a date with slashes is read only as declared, with --date-format DD/MM/YYYY',
      "This sheet looks like it was saved as 'CSV (Comma delimited)' on an Arabic Windows (Windows-1256): save it as 'CSV UTF-8', or pass --encoding windows-1256. Read as Windows-1256, its header and records have the problems above: correct them too.",
    ]);
    expect((await received(sandbox)).count).toBe(0);

    const dryRun = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--dry-run'], { home });
    expect(dryRun.stderr).toContain('its header and records have the problems above');

    // Each problem corrected as told, in one go: the next run sends every row.
    writeFileSync(join(home, 'sheet.csv'), rows(header, '12.35', '2030-01-05'));
    const second = await runInProcess(
      ['create', 'single', '--file', 'sheet.csv', '--yes', '--encoding', 'windows-1256'],
      {
        home,
      },
    );
    expect(second.code, second.stderr).toBe(0);
    expect((await received(sandbox)).count).toBe(3);
  });

  it('reads the rest of the file for its encoding when its header is refused before its first Arabic row', async () => {
    const home = homeFor(sandbox);
    // 5,000 rows without Arabic come first: the header is refused long before the reading meets Windows-1256.
    const plain = Array.from(
      { length: 5000 },
      (_, index) => `L-${index},Amr Hassan,+201001234567,100,2030-01-01,2030-01-01,2030-02-01,Order ${index}`,
    );
    const bytes = inWindows1256(
      [
        header.replace('note', 'notes'),
        ...plain,
        'L-5000,محمد علي,+201155512345,12.345,2030-01-01,2030-01-01,2030-02-01,x',
      ].join('\r\n') + '\r\n',
    );
    writeFileSync(join(home, 'late.csv'), bytes);
    const result = await runInProcess(['create', 'single', '--file', 'late.csv', '--dry-run'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr.split('\n').slice(0, 3)).toEqual([
      `✖ --file late.csv is not UTF-8 text: line 5002 holds bytes that are not UTF-8 (from byte ${bytes.findIndex((byte) => byte >= 0x80) + 1}); nothing was sent.`,
      '  header (row 1): column H "notes" is not an invoice field; did you mean note?',
      '  row 5002, column amount (D): must have at most two decimals',
    ]);
  });

  it('says every record is valid read so, when the encoding was all that was wrong', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), rows(header, '12.35', '2030-01-05'));
    const result = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--dry-run'], { home });
    expect(result.code).toBe(2);
    // Where the bytes landed as read, then what the encoding it most likely is in makes of the records.
    expect(result.stderr).toContain('  rows 2-4: column customer.name (B): holds characters that could not be read');
    expect(result.stderr).toContain('or pass --encoding windows-1256. Read as Windows-1256, every record is valid.');
  });
});
