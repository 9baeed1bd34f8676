import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actionWorkflow,
  csvOf,
  outcomes,
  receivedWithNote,
  sheetYear as year,
  stepNamed,
} from './helpers/action-workflow.js';
import { handMadeWorkbook, type HandCell } from './helpers/workbook.js';
import { serveSandbox, type ServedSandbox } from './bulk/helpers.js';

// The whole Action, run as a runner runs its steps, with no release anywhere: einvoice built from the Action's own
// files (this repository's install standing for `npm ci`, so a run takes seconds; test/install/action-source.test.ts
// runs the true `npm ci` and build in CI), then the real CLI creates a file's invoices in a sandbox served by
// `einvoice sandbox serve`.

let sandbox: ServedSandbox;
let workflow: ReturnType<typeof actionWorkflow>;
beforeAll(async () => {
  sandbox = await serveSandbox();
  workflow = actionWorkflow({ sandbox, nodeFolder: dirname(process.execPath), npm: 'repository' });
});
afterAll(async () => {
  await sandbox.stop();
});

const received = (prefix: string) => receivedWithNote(sandbox, prefix);

describe('the Action with no release anywhere', () => {
  it("builds einvoice from its own files and creates a CSV file's invoices, then runs from its cache", async () => {
    const notes = ['Run order 1', 'Run order 2', 'Run order 3'];
    const first = workflow.run({ file: 'invoices.csv', environment: 'staging' }, { 'invoices.csv': csvOf(notes) });
    expect(outcomes(first.steps), JSON.stringify(first.steps, null, 1)).toEqual({
      'Choose einvoice': 'success',
      'Restore the einvoice build': 'success',
      'Install einvoice': 'success',
      'Save the einvoice build': 'success',
      'Check the environment': 'success',
      'Name the journal': 'success',
      'Restore the journal': 'success',
      'Create the invoices': 'success',
      'Name the journal to save': 'success',
      'Save the journal': 'success',
      'Upload the report': 'success',
    });
    const install = stepNamed(first.steps, 'Install einvoice');
    expect(install.stdout).toMatch(
      /^::notice::einvoice \d+\.\d+\.\d+ built from source \(main is no release\): merchant\/einvoice@main .*sources sha256 [0-9a-f]{64}; Node\.js v\d+/m,
    );
    expect(workflow.downloads()).toEqual([]);
    expect(workflow.npmCalls()).toEqual([workflow.actionPath]);
    const sent = await received('Run order');
    expect(sent.map((request) => request.note).sort()).toEqual(notes);
    expect(sent[0]).toMatchObject({ amount: 301, customer: { name: 'Customer 1', mobile: '+201001234500' } });
    expect(first.summary).toMatch(/created/i);
    expect(existsSync(join(first.workspace, 'einvoice-report.xml'))).toBe(true);

    // A later run of the same ref: einvoice from the cache in seconds (no npm), the journal from the cache too.
    const later = workflow.run({ file: 'invoices.csv', environment: 'staging' }, { 'invoices.csv': csvOf(notes) });
    expect(stepNamed(later.steps, 'Install einvoice').stdout).toMatch(/built from source .*, from the cache; /);
    expect(stepNamed(later.steps, 'Save the einvoice build').outcome).toBe('skipped');
    expect(stepNamed(later.steps, 'Create the invoices').outcome).toBe('success');
    expect(workflow.npmCalls()).toHaveLength(1);
    expect(await received('Run order')).toHaveLength(3);
  });

  it("with its defaults, a bare 2026-12-03 is sent as 2026-12-02T22:00:00.000Z: the days are Cairo's", async () => {
    const run = workflow.run(
      { file: 'invoices.csv', environment: 'staging' },
      { 'invoices.csv': csvOf(['Cairo day']) },
    );
    expect(stepNamed(run.steps, 'Create the invoices').outcome).toBe('success');
    const [request] = await received('Cairo day');
    expect(request).toMatchObject({
      sendingDate: `${year}-12-03`,
      releaseDate: `${year}-12-02T22:00:00.000Z`,
      expiryDate: `${year}-12-31T21:59:59.999Z`,
    });
  });

  it("counts days in the time-zone input's zone, and in the profile's timeZone where it names one", async () => {
    const riyadh = workflow.run(
      { file: 'invoices.csv', environment: 'staging', 'time-zone': 'Asia/Riyadh' },
      { 'invoices.csv': csvOf(['Riyadh day']) },
    );
    expect(stepNamed(riyadh.steps, 'Create the invoices').outcome).toBe('success');
    expect((await received('Riyadh day'))[0]?.releaseDate).toBe(`${year}-12-02T21:00:00.000Z`);

    const profile = workflow.run(
      { file: 'invoices.csv', environment: 'staging' },
      { 'invoices.csv': csvOf(['Profile day']), '.einvoicerc': 'timeZone: UTC\n' },
    );
    expect(stepNamed(profile.steps, 'Create the invoices').outcome).toBe('success');
    expect((await received('Profile day'))[0]?.releaseDate).toBe(`${year}-12-03T00:00:00.000Z`);
  });

  it("format xlsx with sheet Orders creates the workbook's invoices from that sheet", async () => {
    const text = (value: string): HandCell => ({ inline: value });
    const rows = csvOf(['Sheet order 1', 'Sheet order 2'])
      .trim()
      .split('\n')
      .map((line) => line.split(','));
    const orders = rows.map((cells, index) =>
      cells.map((cell): HandCell => (index > 0 && /^\d+(\.\d+)?$/.test(cell) ? { number: cell } : text(cell))),
    );
    const workbook = await handMadeWorkbook({
      sheets: [
        { name: 'Read me', rows: [[text('customer.name')], [text('Not an invoice')]] },
        { name: 'Orders', rows: orders },
      ],
    });
    const run = workflow.run(
      { file: 'orders.xlsx', environment: 'staging', format: 'xlsx', sheet: 'Orders' },
      { 'orders.xlsx': workbook },
    );
    const create = stepNamed(run.steps, 'Create the invoices');
    expect(create.outcome, create.stderr).toBe('success');
    const sent = await received('Sheet order');
    expect(sent.map((request) => request.note).sort()).toEqual(['Sheet order 1', 'Sheet order 2']);
    // Nothing of the workbook's first sheet.
    expect(JSON.stringify(await received(''))).not.toContain('Not an invoice');
  });
});
