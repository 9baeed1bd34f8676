import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';
import { excelSerial, writeHandMadeWorkbook, type HandCell } from '../helpers/workbook.js';

// The merchant's clock in CI: a run that reads bare days, `today` or `+30d` with no zone configured (no profile
// timeZone, no TZ) reads them in the runner's zone, seldom the merchant's, and says so once, wherever a warning goes.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.api.reset(false));

/** The zone a run with none configured reads days in: this process's (in-process runs share it). */
const machineZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
/** The warning, as the terminal, the annotations and the summaries tell it. */
const warning =
  `Dates without a time zone were read in ${machineZone}, this machine's zone: set timeZone in the profile or TZ ` +
  "(the service's merchants usually mean Africa/Cairo; see einvoice help dates).";
/** The warning in a step summary's Markdown, its markup characters escaped (`America/Los\_Angeles`). */
const warningInMarkdown = warning.replace(/[\\`*_[\]|#~]/g, (character) => `\\${character}`);
/** No zone configured: no TZ (the runners give UTC otherwise), and no timeZone in the profile. */
const noZone = { TZ: undefined };

const flags = ['--customer-name', 'Mona Adel', '--customer-mobile', '+201001234567', '--amount', '10', '--note', 'x'];
const bareDays = ['--sending-date', '2030-12-01', '--release-date', '2030-12-01', '--expiry-date', '2030-12-31'];

const sheet = [
  'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note',
  'CLK-1,Mona Adel,+201001234567,100.50,2030-01-01,2030-01-01,2030-02-01,First',
  'CLK-2,Amr Hassan,+201012345678,20,2030-01-01,2030-01-01,+30d,Second',
  '',
].join('\n');

/** How many times `text` holds `part`. */
const times = (text: string, part: string) => text.split(part).length - 1;

describe('in CI with no zone configured', () => {
  it('one invoice of bare days: warns once, naming the zone the days were read in and how to set one', async () => {
    const result = await runInProcess(['create', 'single', ...flags, ...bareDays, '--dry-run'], {
      home: homeFor(sandbox),
      env: noZone,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(times(result.stderr, warning)).toBe(1);
    // The body is data on stdout, untouched by the warning.
    expect(JSON.parse(result.stdout)).toMatchObject({ sendingDate: '2030-12-01' });
  });

  it('warns of today as of bare days, and before a refusal of the same run', async () => {
    // Today's date in the zone, and instants: only `today` is read as a day.
    const today = ['--sending-date', 'today', '--release-date', 'today', '--expiry-date', '2099-01-01T00:00:00Z'];
    const home = homeFor(sandbox);
    const sent = await runInProcess(['create', 'single', ...flags, ...today, '--yes'], { home, env: noZone });
    expect(sent.code, sent.stderr).toBe(0);
    expect(times(sent.stderr, warning)).toBe(1);

    const past = ['--sending-date', '2020-01-10', '--release-date', '2020-01-10', '--expiry-date', '+30d'];
    const refused = await runInProcess(['create', 'single', ...flags, ...past, '--yes'], { home, env: noZone });
    expect(refused.code).toBe(2);
    expect(times(refused.stderr, warning)).toBe(1);
    expect((await received(sandbox)).count).toBe(1);
  });

  it('in GitHub Actions, one invoice: a ::warning annotation and the step summary name the zone', async () => {
    const home = homeFor(sandbox);
    const summaryFile = join(home, 'step-summary.md');
    writeFileSync(summaryFile, '# Earlier step\n');
    const result = await runInProcess(['create', 'single', ...flags, ...bareDays, '--yes'], {
      home,
      env: { ...noZone, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile },
    });
    expect(result.code, result.stderr).toBe(0);
    const annotations = result.stderr.split('\n').filter((line) => line.startsWith('::warning '));
    expect(annotations).toEqual([`::warning title=einvoice::${warning}`]);
    expect(readFileSync(summaryFile, 'utf8')).toBe(
      `# Earlier step\n### einvoice: warnings\n\n- ${warningInMarkdown}\n\n`,
    );
  });

  it('a file of many: warns once for every record, in --json, the JUnit report, annotations and step summary', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), sheet);
    const summaryFile = join(home, 'step-summary.md');
    const result = await runInProcess(
      ['create', 'single', '--file', 'sheet.csv', '--yes', '--json', '--report', 'report.xml'],
      { home, env: { ...noZone, GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: home, GITHUB_STEP_SUMMARY: summaryFile } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(times(result.stderr, `! ${warning}\n`)).toBe(1);
    expect(result.stderr).toContain(`::warning file=sheet.csv,title=einvoice::${warning}\n`);
    const { summary } = JSON.parse(result.stdout) as { summary: { created: number; warnings?: string[] } };
    expect(summary).toMatchObject({ created: 2, warnings: [warning] });
    expect(readFileSync(summaryFile, 'utf8')).toContain(`#### Warnings\n\n- ${warningInMarkdown}\n`);
    const xml = readFileSync(join(home, 'report.xml'), 'utf8');
    // The suite's own output, after its cases.
    expect(xml).toContain(`    <system-out>warning: ${warning}</system-out>\n  </testsuite>`);
    const schema = readFileSync(new URL('../fixtures/junit.xsd', import.meta.url), 'utf8');
    const validated = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [schema] });
    expect(validated.errors, validated.rawOutput).toEqual([]);
  });

  it('a dry run of the same file warns too, and the ledger read by day', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), sheet);
    const dry = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--dry-run'], { home, env: noZone });
    expect(dry.code, dry.stderr).toBe(0);
    expect(times(dry.stderr, warning)).toBe(1);

    const listed = await runInProcess(['invoices', 'list', '--since', '2030-01-01', '--until', 'today'], {
      home,
      env: noZone,
    });
    expect(listed.code, listed.stderr).toBe(0);
    expect(times(listed.stderr, warning)).toBe(1);
    const forgot = await runInProcess(['invoices', 'forget', '--before', '2020-01-01'], { home, env: noZone });
    expect(forgot.code, forgot.stderr).toBe(0);
    expect(times(forgot.stderr, warning)).toBe(1);
  });

  it("a workbook's date-time cells, read on this machine's clock, warn as bare days do", async () => {
    const home = homeFor(sandbox);
    const names = ['businessReference', 'customer.name', 'customer.mobile', 'amount', 'sendingDate'];
    const header: HandCell[] = [...names, 'releaseDate', 'expiryDate', 'note'].map((name) => ({ shared: name }));
    const cells: HandCell[] = [
      ...[{ inline: 'CLK-X' }, { inline: 'Mona Adel' }, { inline: '+201001234567' }, { number: 10 }],
      { date: excelSerial('2030-01-05') },
      // Times of day, no zone: the only dates of the record read on a clock.
      { date: excelSerial('2030-01-05', '09:00:00') },
      { date: excelSerial('2030-02-05', '18:30:00') },
      { inline: 'x' },
    ];
    await writeHandMadeWorkbook(join(home, 'sheet.xlsx'), { sheets: [{ name: 'Sheet1', rows: [header, cells] }] });
    const result = await runInProcess(['create', 'single', '--file', 'sheet.xlsx', '--dry-run'], {
      home,
      env: noZone,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(times(result.stderr, warning)).toBe(1);
  });
});

describe('says nothing', () => {
  it('when the profile or TZ names the zone, outside CI, or when no date was read as a day', async () => {
    const run = (home: string, env: Record<string, string | undefined>, dates = bareDays) =>
      runInProcess(['create', 'single', ...flags, ...dates, '--dry-run'], { home, env });
    const withZone = await run(homeFor(sandbox, { timeZone: 'Africa/Cairo' }), noZone);
    const withTz = await run(homeFor(sandbox), { TZ: 'Africa/Cairo' });
    const atTerminal = await run(homeFor(sandbox), { ...noZone, CI: undefined });
    const instants = ['--sending-date', '2030-12-01', '--release-date', '2030-12-01T08:00:00Z'];
    const noDays = await run(homeFor(sandbox), noZone, [...instants, '--expiry-date', '2030-12-31T20:00:00Z']);
    for (const result of [withZone, withTz, atTerminal, noDays]) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toContain('Dates without a time zone');
    }
  });
});
