import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';

// Where the GitHub Action runs einvoice (EINVOICE_ACTION=true), what a run tells the merchant to change names the
// Action's inputs, which the workflow sets: `strict: false`, not `--no-strict`. The CLI run by hand in GitHub Actions
// keeps its flags.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.api.reset(false));

/** Row 2 is held back under strict for its mobile; row 3 has an amount that differs from its items' total. */
const sheet = [
  'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note,items',
  'A-1,Amr,1012345678,100,2030-01-01,2030-01-01,2030-02-01,One,',
  'A-2,Mona,+201001234567,150,2030-01-01,2030-01-01,2030-02-01,Two,"code=S,qty=2,price=70,en=Shirt,ar=قميص"',
  '',
].join('\r\n');

async function runIn(home: string, env: Record<string, string>) {
  const summary = join(home, 'summary.md');
  writeFileSync(summary, '');
  const result = await runInProcess(
    ['create', 'single', '--file', 'sheet.csv', '--yes', '--strict', '--journal', 'j.ndjson'],
    { home, env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: home, GITHUB_STEP_SUMMARY: summary, ...env } },
  );
  return { result, summary: readFileSync(summary, 'utf8') };
}

describe('the words of a refused run', () => {
  it('name the inputs in the step summary, the annotations and the error where the Action runs einvoice', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), sheet);
    const { result, summary } = await runIn(home, { EINVOICE_ACTION: 'true' });

    expect(result.code).toBe(2);
    expect((await received(sandbox)).count).toBe(0);
    const next = /\*\*What to do next:\*\* (.*)/.exec(summary)?.[1] ?? '';
    expect(next).toContain('Fix them and run the same job again, or set skip-invalid: true to send the valid records');
    expect(next).toContain('or set strict: false to send them with their warnings.');
    // The records' own problems too: the flag a choice of amount would be is the input's value.
    expect(summary).toMatch(
      /\| 3 \(A-2\) \| invalid \| amount: is 150\.00, the items add up to 140\.00: amount: keep sends 150\.00, amount: items sends 140\.00 \|/,
    );
    expect(summary).toMatch(/\| 2 \(A-1\) \| invalid \| customer\.mobile: 1012345678 .*\(strict: true\) \|/);
    expect(`${summary}${result.stderr}`).not.toMatch(
      /--(?:no-)?strict|--skip-invalid|--keep-amount|--amount-from-items/,
    );
    expect(result.stderr).toMatch(
      /^::error file=sheet\.csv,line=3,title=einvoice%3A invalid::row 3 \(A-2\): amount: .*amount: keep sends/m,
    );
    expect(result.stderr).toContain('or set strict: false to send them with their warnings.');
  });

  it('keep the flags where the CLI runs in GitHub Actions by itself', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), sheet);
    const { result, summary } = await runIn(home, {});

    expect(result.code).toBe(2);
    expect(summary).toContain('or pass --skip-invalid (skip-invalid: true in the GitHub Action) to send');
    expect(summary).toContain('or pass --no-strict to send them with their warnings.');
    expect(result.stderr).toContain('--keep-amount sends 150.00');
  });
});

describe('the error a command ends with', () => {
  it('names the input in its annotation where the Action runs einvoice', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'one.json'), '{}');
    const result = await runInProcess(['create', 'single', '--file', 'one.json', '--date-format', 'DD/MM/YYYY'], {
      home,
      env: { GITHUB_ACTIONS: 'true', EINVOICE_ACTION: 'true' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '::error title=einvoice::date-format applies only to a sheet, a CSV or .xlsx --file; nothing was sent.',
    );
  });
});
