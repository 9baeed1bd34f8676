import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';

// `--fix-mobiles`: the number a mobile's warning suggests is sent on the merchant's word, exactly that one, and each
// change is a warning of its record in every output; a number with no single reading is never guessed.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.api.reset(false));

/** Each mobile as a spreadsheet mangled it, and what its warning suggests (none for a number with no one reading). */
const mobiles: Array<[mobile: string, suggested: string | undefined]> = [
  ['1012345678', '01012345678'],
  ['201112345678', '+201112345678'],
  ['00201212345678', '+201212345678'],
  ['+2001512345678', '+201512345678'],
  ['010123456', undefined],
];

const sheet = [
  'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note',
  ...mobiles.map(([mobile], index) => `F-${index + 1},Amr,${mobile},100,2030-01-01,2030-01-01,2030-02-01,Order`),
  'F-9,Mona,01112345678,100,2030-01-01,2030-01-01,2030-02-01,Order',
  'F-10,Sara,1112345678,100,2030-01-01,2030-01-01,2030-02-01,Order',
].join('\r\n');

interface JsonReport {
  records: Array<{ businessReference: string; status: string; warnings?: Array<{ path: string; message: string }> }>;
}

async function sentMobiles(): Promise<Record<string, string>> {
  const invoices = await sandbox.api.invoices();
  return Object.fromEntries(
    invoices.map((invoice) => {
      const request = invoice.request as { businessReference: string; customer: { mobile: string } };
      return [request.businessReference, request.customer.mobile];
    }),
  );
}

describe('a sheet of mobiles a spreadsheet mangled', () => {
  it('suggests each fix without the flag, and sends every number as given', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), `${sheet}\r\n`);
    const result = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--dry-run'], { home });

    expect(result.code, result.stderr).toBe(0);
    // One cause of two rows is one line, each number beside the one suggested; a cause of one row keeps its words.
    expect(result.stderr).toContain(
      '  rows 2 (1012345678 → 01012345678), 8 (1112345678 → 01112345678): column customer.mobile (C): looks like a number whose leading 0 a spreadsheet dropped: format the column as text, or pass --fix-mobiles to send the number suggested\n',
    );
    expect(result.stderr).toContain(
      'row 3, column customer.mobile (C): 201112345678 looks like an Egyptian mobile whose + a spreadsheet dropped (+201112345678?)',
    );
    expect(result.stderr).toContain(
      'row 4, column customer.mobile (C): 00201212345678 writes the + of +20 as 00 (+201212345678?): pass --fix-mobiles to send +201212345678',
    );
    expect(result.stderr).toContain('row 6, column customer.mobile (C): 010123456 is not an Egyptian mobile: 9 digits');
  });

  it('sends exactly the suggested numbers with --fix-mobiles, each change a warning in every output; a 9-digit number is not guessed', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), `${sheet}\r\n`);
    const summaryFile = join(home, 'summary.md');
    const env = { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: home, GITHUB_STEP_SUMMARY: summaryFile };
    const result = await runInProcess(
      ['create', 'single', '--file', 'sheet.csv', '--yes', '--fix-mobiles', '--json', '--report', 'report.csv'],
      { home, env },
    );

    expect(result.code, result.stderr).toBe(0);
    expect(await sentMobiles()).toEqual({
      'F-1': '01012345678',
      'F-2': '+201112345678',
      'F-3': '+201212345678',
      'F-4': '+201512345678',
      'F-5': '010123456',
      'F-9': '01112345678',
      'F-10': '01112345678',
    });
    const changed = mobiles.flatMap(([mobile, fixed], index) =>
      fixed === undefined ? [] : [{ reference: `F-${index + 1}`, mobile, fixed }],
    );
    const json = JSON.parse(result.stdout) as JsonReport;
    for (const { reference, mobile, fixed } of changed) {
      const sentAs = `sent as ${fixed} (--fix-mobiles)`;
      expect(json.records.find((record) => record.businessReference === reference)).toMatchObject({
        status: 'created',
        warnings: [
          {
            path: 'customer.mobile',
            message: expect.stringMatching(
              new RegExp(`^${mobile.replace('+', '\\+')} .*; ${sentAs.replace(/[()+]/g, '\\$&')}$`),
            ),
          },
        ],
      });
      expect(readFileSync(join(home, 'report.csv'), 'utf8')).toMatch(
        new RegExp(`,${reference},created,.*${fixed.replace('+', '\\+')} \\(--fix-mobiles\\)`),
      );
      expect(result.stderr).toMatch(
        new RegExp(
          `^::warning file=sheet\\.csv,line=\\d+,title=einvoice%3A to look at::row \\d+ \\(${reference}\\): customer\\.mobile: .*sent as ${fixed.replace('+', '\\+')} \\(--fix-mobiles\\)`,
          'm',
        ),
      );
    }
    // The terminal's summary of warnings tells the same cause once, each number beside the one sent.
    expect(result.stderr).toContain(
      '  rows 2 (1012345678 → 01012345678), 8 (1112345678 → 01112345678): column customer.mobile (C): looks like a number whose leading 0 a spreadsheet dropped; sent as the number suggested (--fix-mobiles)\n',
    );
    expect(result.stderr).toContain(
      '  row 3, column customer.mobile (C): 201112345678 looks like an Egyptian mobile whose + a spreadsheet dropped; sent as +201112345678 (--fix-mobiles)\n',
    );
    // What has no one reading stays a warning to look at, sent as given.
    expect(json.records.find((record) => record.businessReference === 'F-5')?.warnings?.[0]?.message).toContain(
      '010123456 is not an Egyptian mobile: 9 digits',
    );
    expect(readFileSync(summaryFile, 'utf8')).toMatch(
      /\| 2 \(F-1\) \| created \| customer\.mobile: 1012345678 .*sent as 01012345678/,
    );
  });

  it('writes each change into the JUnit report, and under --strict sends the fixed numbers and refuses the rest', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), `${sheet}\r\n`);
    const result = await runInProcess(
      [
        'create',
        'single',
        '--file',
        'sheet.csv',
        '--yes',
        '--fix-mobiles',
        '--strict',
        '--skip-invalid',
        '--report',
        'report.xml',
      ],
      { home },
    );

    expect(result.code).toBe(6);
    expect(Object.keys(await sentMobiles()).sort()).toEqual(['F-1', 'F-10', 'F-2', 'F-3', 'F-4', 'F-9']);
    const junit = readFileSync(join(home, 'report.xml'), 'utf8');
    expect(junit).toMatch(
      /<testcase name="row 2 \(F-1\)"[^>]*>\n\s*<system-out>warning: customer\.mobile: 1012345678 .*sent as 01012345678 \(--fix-mobiles\)/,
    );
    expect(junit).toMatch(
      /<testcase name="row 6 \(F-5\)"[^>]*>\n\s*<failure[^>]*>[^<]*010123456 is not an Egyptian mobile: 9 digits/,
    );
  });
});

/** `create single` of one invoice to `mobile`, with --fix-mobiles. */
function oneInvoice(mobile: string): string[] {
  return [
    ...['create', 'single', '--customer-name', 'Amr', '--customer-mobile', mobile, '--amount', '100'],
    ...['--sending-date', '2030-01-01', '--release-date', '2030-01-01', '--expiry-date', '2030-02-01'],
    ...['--note', 'Order', '--yes', '--fix-mobiles'],
  ];
}

describe('one invoice', () => {
  it('sends the mobile its warning suggests with --fix-mobiles, naming the flag it came from', async () => {
    const home = homeFor(sandbox);
    const result = await runInProcess(oneInvoice('1012345678'), { home });

    expect(result.code, result.stderr).toBe(0);
    expect((await received(sandbox)).last?.request).toMatchObject({ customer: { mobile: '01012345678' } });
    expect(result.stderr).toContain(
      '! customer.mobile (--customer-mobile): 1012345678 looks like a number whose leading 0 a spreadsheet dropped; sent as 01012345678 (--fix-mobiles).',
    );
    expect(result.stderr).not.toContain('sent as given');
  });

  it('leaves a number with no one reading as it is, with its warning', async () => {
    const home = homeFor(sandbox);
    const result = await runInProcess(oneInvoice('010123456'), { home });

    expect(result.code, result.stderr).toBe(0);
    expect((await received(sandbox)).last?.request).toMatchObject({ customer: { mobile: '010123456' } });
    expect(result.stderr).toContain('010123456 is not an Egyptian mobile: 9 digits, one has 11');
  });
});
