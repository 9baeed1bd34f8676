import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workbook } from '@cj-tech-master/excelts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveColumn } from '../../src/sheet/csv-columns.js';
import { templateColumns } from '../../src/commands/template/run.js';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';

// `einvoice template`: what it prints is a valid start in each format --file reads, read back as it stands.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const extension = { csv: 'csv', ndjson: 'ndjson', json: 'json' } as const;

describe('einvoice template', () => {
  for (const kind of ['single', 'recurring'] as const) {
    for (const format of ['csv', 'ndjson', 'json'] as const) {
      it(`prints a ${kind} ${format} template that create reads back as valid`, async () => {
        const home = homeFor(sandbox);
        const printed = await runInProcess(['template', kind, '--format', format], { env: { HOME: home } });
        expect(printed.code, printed.stderr).toBe(0);
        expect(printed.stderr).toBe('');
        const lines = printed.stdout.trimEnd().split('\n');
        if (format === 'csv') {
          expect(lines).toHaveLength(2);
          expect(lines[0]?.split(',')).toEqual(templateColumns[kind]);
        }
        if (format === 'ndjson') expect(lines).toHaveLength(1);
        const file = `template.${extension[format]}`;
        writeFileSync(join(home, file), printed.stdout);

        const checked = await runInProcess(['create', kind, '--file', file, '--dry-run', '--json'], { home });
        expect(checked.code, checked.stderr).toBe(0);
        if (format === 'csv') {
          const report = JSON.parse(checked.stdout) as { records: Array<{ row: number; status: string }> };
          expect(report.records).toEqual([expect.objectContaining({ row: 2, status: 'valid' })]);
        }
        expect((await received(sandbox)).count).toBe(0);
      });
    }
  }

  it('names only columns that bulk creation reads', () => {
    for (const column of [...templateColumns.single, ...templateColumns.recurring]) {
      expect(resolveColumn(column), column).toEqual(expect.objectContaining({ path: column }));
    }
  });

  it('prints the JSON template for --json, and refuses --json with another --format', async () => {
    const json = await runInProcess(['template', 'recurring', '--format', 'json']);
    const asked = await runInProcess(['template', 'recurring', '--json']);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toBe(json.stdout);
    expect(JSON.parse(asked.stdout)).toMatchObject({ cycleType: 'MONTH' });

    const both = await runInProcess(['template', 'single', '--json', '--format', 'csv']);
    expect(both.code).toBe(2);
    expect(both.stdout).toBe('');
    expect(both.stderr).toContain('--json asks for the JSON template and --format csv for another.');
    expect((await runInProcess(['template', 'single', '--json', '--format', 'json'])).code).toBe(0);
  });

  it('refuses an unknown kind or format with exit 2', async () => {
    const kind = await runInProcess(['template', 'weekly']);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain("'weekly' is invalid");
    const format = await runInProcess(['template', 'single', '--format', 'xls']);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('Allowed choices are csv, xlsx, ndjson, json');
  });

  for (const kind of ['single', 'recurring', 'refunds'] as const) {
    it(`writes a ${kind} workbook: text columns as text, dates as dates, a note on each header cell`, async () => {
      const home = homeFor(sandbox);
      const written = await runInProcess(['template', kind, '--format', 'xlsx', '--output', 'template.xlsx'], {
        home,
      });
      expect(written.code, written.stderr).toBe(0);

      const workbook = new Workbook();
      await workbook.xlsx.readFile(join(home, 'template.xlsx'));
      const sheet = workbook.getWorksheet(1);
      const headers = (sheet?.getRow(1).values as unknown[]).slice(1);
      expect(headers).toEqual(templateColumns[kind]);
      const cellOf = (column: string) => sheet?.getRow(2).getCell(headers.indexOf(column) + 1);
      for (const column of templateColumns[kind]) {
        expect(sheet?.getRow(1).getCell(headers.indexOf(column) + 1).note, column).toContain(`${column}: `);
      }
      if (kind === 'refunds') {
        expect(cellOf('invoiceNumber')?.numFmt).toBe('@');
        return;
      }
      expect(cellOf('customer.mobile')?.numFmt).toBe('@');
      expect(cellOf('businessReference')?.numFmt).toBe('@');
      expect(cellOf('sendingDate')?.value).toBeInstanceOf(Date);
      expect(typeof cellOf('amount')?.value === 'number' || cellOf('amount')?.value === null).toBe(true);

      const checked = await runInProcess(['create', kind, '--file', 'template.xlsx', '--dry-run', '--json'], { home });
      expect(checked.code, checked.stderr).toBe(0);
      const report = JSON.parse(checked.stdout) as { records: Array<{ row: number; status: string }> };
      expect(report.records).toEqual([expect.objectContaining({ row: 2, status: 'valid' })]);
    });
  }

  it('writes a workbook to stdout when piped, and refuses a terminal', async () => {
    const piped = await runInProcess(['template', 'single', '--format', 'xlsx']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.startsWith('PK')).toBe(true);
    const terminal = await runInProcess(['template', 'single', '--format', 'xlsx'], { stdoutIsTTY: true });
    expect(terminal.code).toBe(2);
    expect(terminal.stderr).toContain('--output single.xlsx');
  });

  it('prints orders, in every format, that reconcile reads as five not invoiced and create single as five invoices', async () => {
    const home = homeFor(sandbox);
    for (const format of ['csv', 'ndjson', 'json', 'xlsx'] as const) {
      const file = `orders.${format}`;
      const printed = await runInProcess(['template', 'orders', '--format', format, '--output', file], { home });
      expect(printed.code, printed.stderr).toBe(0);
      const reconciled = await runInProcess(['invoices', 'reconcile', file, '--json'], { home });
      expect(reconciled.code, reconciled.stderr).toBe(0);
      const { rows } = JSON.parse(reconciled.stdout) as { rows: Array<{ class: string; businessReference: string }> };
      expect(
        rows.map((row) => [row.class, row.businessReference]),
        format,
      ).toEqual(
        ['ORD-1001', 'ORD-1002', 'ORD-1003', 'ORD-1004', 'ORD-1005'].map((reference) => ['not-invoiced', reference]),
      );
      const checked = await runInProcess(['create', 'single', '--file', file, '--dry-run', '--json'], { home });
      expect(checked.code, checked.stderr).toBe(0);
      const report = JSON.parse(checked.stdout) as { summary: { valid: number } };
      expect(report.summary.valid, format).toBe(5);
    }
    expect(templateColumns.orders.every((column) => 'path' in resolveColumn(column))).toBe(true);
    expect((await received(sandbox)).count).toBe(0);
  });
});
