import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';

// A bulk run as a CI shows it: the JUnit report GitLab, Jenkins and Azure DevOps read, and GitHub Actions'
// annotations, log groups and step summary.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.api.reset(false));

const junitSchema = readFileSync(new URL('../fixtures/junit.xsd', import.meta.url), 'utf8');

/** A sheet whose row 3 (the second record) has no customer mobile and an amount that is not a number. */
const sheet = [
  'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note',
  'CI-1,Mona Adel,+201001234567,100.50,2030-01-01,2030-01-01,2030-02-01,"First, <b>&</b>"',
  'CI-2,Amr Hassan,,ten,2030-01-01,2030-01-01,2030-02-01,Second',
  '',
].join('\n');

async function validJunit(xml: string): Promise<void> {
  const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [junitSchema] });
  expect(result.errors, result.rawOutput).toEqual([]);
  expect(result.valid).toBe(true);
}

describe('--report FILE.xml', () => {
  it('writes one JUnit test case per record, the invalid one a failure naming its fields', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), sheet);
    const result = await runInProcess(
      ['create', 'single', '--file', 'sheet.csv', '--skip-invalid', '--yes', '--report', 'r.xml'],
      { home },
    );
    // The valid row was created, the invalid one not: a partial run.
    expect(result.code, result.stderr).toBe(6);
    const xml = readFileSync(join(home, 'r.xml'), 'utf8');
    await validJunit(xml);
    expect(xml.match(/<testcase /g)).toHaveLength(2);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toContain('<testsuite name="einvoice create single sheet.csv" tests="2" failures="1" errors="0"');
    expect(xml).toMatch(/<testcase name="row 2 \(CI-1\)" classname="sheet.csv" time="0"\/>/);
    const failure = /<testcase name="row 3 \(CI-2\)"[^>]*>\s*<failure type="invalid" message="([^"]*)"/.exec(xml);
    expect(failure?.[1]).toContain('customer.mobile');
    expect(failure?.[1]).toContain('amount');
    expect((await sandbox.api.invoices()).length).toBe(1);
  });

  it('stays valid XML with markup, quotes, line breaks and control characters in the messages', async () => {
    const { junitLines } = await import('../../src/bulk/report-junit.js');
    const { invoiceWords } = await import('../../src/bulk/record-check.js');
    const xml = [
      ...junitLines(
        [
          { record: 1, line: 2, businessReference: 'A&B <"x">', status: 'failed', error: 'HTTP 500: <html>\u0007\n' },
          { record: 2, line: 3, status: 'duplicate', error: 'same as record 1' },
          { record: 3, line: 4, status: 'created', invoiceNumber: '7' },
        ],
        { input: 'in\u001b[31m.ndjson', words: invoiceWords('single'), durationMs: 1234, timestamp: new Date(0) },
      ),
    ].join('\n');
    await validJunit(xml);
    expect(xml).toContain('tests="3" failures="1" errors="0" skipped="1" time="1.234"');
    expect(xml).not.toContain('\u001b');
    expect(xml).not.toContain('\u0007');
  });
});

describe('in GitHub Actions', () => {
  it('annotates row 3 of the CSV, folds the list in a group, and writes a Markdown table to the step summary', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), sheet);
    const summaryFile = join(home, 'step-summary.md');
    writeFileSync(summaryFile, '# Earlier step\n');
    const result = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes'], {
      home,
      env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: home, GITHUB_STEP_SUMMARY: summaryFile },
    });
    expect(result.code, result.stderr).toBe(2);
    const lines = result.stderr.split('\n');
    const error = lines.find((line) => line.startsWith('::error '));
    expect(error).toMatch(/^::error file=sheet\.csv,line=3,title=einvoice%3A invalid::row 3 \(CI-2\): /);
    // Each problem on a line of its own, the line break escaped as the runner reads it.
    expect(error).toMatch(/customer\.mobile: [^%]*%0Aamount: /);
    const opened = lines.findIndex((line) => line.startsWith('::group::'));
    expect(opened).toBeGreaterThanOrEqual(0);
    expect(lines.indexOf(error as string)).toBeGreaterThan(opened);
    expect(lines.indexOf('::endgroup::')).toBeGreaterThan(lines.indexOf(error as string));
    // stdout stays data: no workflow command goes there.
    expect(result.stdout).not.toContain('::');

    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary.startsWith('# Earlier step\n')).toBe(true);
    expect(summary).toContain('| Records | Count |\n| --- | ---: |\n');
    expect(summary).toMatch(/\| invalid, not sent \| 1 \|/);
    expect(summary).toMatch(/\| 3 \(CI-2\) \| invalid \| customer\.mobile: .*; amount: .* \|/);
  });

  it('masks a token read from the profile file, and annotates nothing outside GitHub Actions', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), sheet);
    const inActions = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes', '--skip-invalid'], {
      home,
      env: { GITHUB_ACTIONS: 'true' },
    });
    expect(inActions.code, inActions.stderr).toBe(6);
    expect(inActions.stderr).toContain(`::add-mask::${sandbox.token}\n`);
    expect(inActions.stderr).toMatch(/^::error file=sheet\.csv,line=3,/m);

    const outside = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes', '--skip-invalid'], {
      home,
    });
    expect(outside.code, outside.stderr).toBe(6);
    expect(outside.stderr).not.toContain('::');
  });
});
