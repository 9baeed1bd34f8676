import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { records, writeNdjson } from '../bulk/helpers.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

// `einvoice invoices import` reads a journal as input from outside (a CI artifact): every line checked before
// anything is written, each problem named by its file, line and field, and nothing of any journal imported when one
// has a problem.

let sandbox: TestSandbox;
let ran: string;
let lines: string[];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  ran = homeFor(sandbox);
  writeNdjson(ran, 'three.ndjson', records(3));
  const run = await runInProcess(['create', 'single', '--file', 'three.ndjson', '--yes', '--journal', 'j.ndjson'], {
    home: ran,
  });
  expect(run.code, run.stderr).toBe(0);
  lines = readFileSync(join(ran, 'j.ndjson'), 'utf8').trimEnd().split('\n');
});
afterAll(() => sandbox.close());

/** The journal's lines, the line numbered `number` (from 1) changed by `change`. */
function withLine(number: number, change: (entry: Record<string, unknown>) => void): string {
  return `${lines
    .map((line, index) => {
      if (index + 1 !== number) return line;
      const entry = JSON.parse(line) as Record<string, unknown>;
      change(entry);
      return JSON.stringify(entry);
    })
    .join('\n')}\n`;
}

const lineOf = (type: string, nth = 1) =>
  lines.map((line, index) => ({ line, index })).filter(({ line }) => line.includes(`"type":"${type}"`))[nth - 1]
    ?.index ?? -1;

async function listedIn(home: string): Promise<unknown[]> {
  const listed = await runInProcess(['invoices', 'list', '--json'], { home });
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as unknown[];
}

describe('invoices import: a journal checked as input from outside', () => {
  it('refuses text with a control character and an invoice number that is no number, each by its line; none imported', async () => {
    const home = homeFor(sandbox);
    const planned = lineOf('planned', 2) + 1;
    const created = lineOf('created') + 1;
    writeFileSync(
      join(home, 'bad.ndjson'),
      withLine(planned, (entry) => {
        (entry.body as { customer: { name: string } }).customer.name = 'Amr\u001b[2J';
      }),
    );
    writeFileSync(
      join(home, 'worse.ndjson'),
      withLine(created, (entry) => {
        entry.invoiceNumber = '1000 OR 1=1';
      }),
    );
    writeFileSync(join(home, 'good.ndjson'), `${lines.join('\n')}\n`);
    const result = await runInProcess(['invoices', 'import', 'good.ndjson', 'bad.ndjson', 'worse.ndjson'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('2 problems in the journals; nothing was imported.');
    expect(result.stderr).toContain(
      `bad.ndjson line ${planned}, body.customer.name: must not contain control characters (found U+001B)`,
    );
    expect(result.stderr).toContain(
      `worse.ndjson line ${created}, invoiceNumber: must be an invoice number: letters, digits, - or _ only`,
    );
    expect(result.stderr).not.toContain('\u001b[2J');
    expect(await listedIn(home)).toEqual([]);
  });

  it('refuses a line that is no journal entry, and leaves out a last line a crash cut short', async () => {
    const home = homeFor(sandbox);
    const damaged = [...lines];
    damaged.splice(2, 0, '{"type":"sent","key":');
    writeFileSync(join(home, 'damaged.ndjson'), `${damaged.join('\n')}\n`);
    const refused = await runInProcess(['invoices', 'import', 'damaged.ndjson'], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('damaged.ndjson line 3, line: is not a journal entry: it is not JSON');
    writeFileSync(join(home, 'torn.ndjson'), `${lines.join('\n')}\n`);
    appendFileSync(join(home, 'torn.ndjson'), '{"type":"sent","key":"x","at":"2026');
    const imported = await runInProcess(['invoices', 'import', 'torn.ndjson'], { home });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('3 invoices sent to local');
    expect(await listedIn(home)).toHaveLength(3);
  });

  it('reads a journal another program wrote its fields in another order (the body first)', async () => {
    const home = homeFor(sandbox);
    const reordered = lines.map((line) => {
      const { body, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(body === undefined ? rest : { body, ...rest });
    });
    writeFileSync(join(home, 'reordered.ndjson'), `${reordered.join('\n')}\n`);
    const imported = await runInProcess(['invoices', 'import', 'reordered.ndjson'], { home });
    expect(imported.code, imported.stderr).toBe(0);
    const shown = await runInProcess(['invoices', 'show', 'REF-2', '--json'], { home });
    expect(JSON.parse(shown.stdout)).toMatchObject([{ body: { note: 'Order 2', businessReference: 'REF-2' } }]);
  });
});
