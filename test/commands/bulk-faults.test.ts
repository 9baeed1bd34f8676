import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { invoicesByNote, records, serveSandbox, writeNdjson, type ServedSandbox } from '../bulk/helpers.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';

// 200 invoices against a sandbox in another process that fails three requests in ten: 503 and 429 with
// Retry-After, and connections dropped after the invoice was committed (one in five, so that some of the 50 records
// without a businessReference are dropped in every run; none is, one run in 90,000). After one run and one resume,
// the sandbox must hold every record exactly once and the report must account for every record.

let sandbox: ServedSandbox;

beforeAll(async () => {
  sandbox = await serveSandbox([
    ...['--fault', '503=0.09', '--fault', '429=0.01', '--fault', 'drop-after-commit=0.2'],
    ...['--latency', '5', '--seed', '7'],
  ]);
});
afterAll(() => sandbox.stop());

interface JsonReport {
  summary: Record<string, number>;
  records: Array<{ record: number; businessReference: string | null; status: string; invoiceNumber?: string }>;
}

describe('bulk creation against a faulty service', () => {
  it('creates each of 200 records exactly once over a run and a resume, and accounts for every record', async () => {
    const home = tempHome();
    writeProfile(home, localProfile(sandbox.url, sandbox.token));
    // Every fourth record has no businessReference: resending it is not safe, so a drop leaves it uncertain.
    const batch = records(200, 4);
    writeNdjson(home, 'batch.ndjson', batch);
    const run = (extra: string[]) =>
      runInProcess(['create', 'single', '--file', 'batch.ndjson', '--yes', '--concurrency', '16', ...extra], {
        env: { HOME: home },
      });

    const first = await run(['--report', 'first.csv', '--json']);
    expect(first.code, first.stderr).toBe(6);
    // The sandbox is new: every invoice it already held was made by one of this run's attempts whose answer was
    // lost, and the run says so.
    const firstReport = JSON.parse(first.stdout) as JsonReport;
    const existed = firstReport.records.filter((entry) => entry.status === 'already-existed');
    expect(existed.every((entry) => (entry as { afterLostAnswer?: boolean }).afterLostAnswer === true)).toBe(true);
    expect(firstReport.summary).toMatchObject({ alreadyExistedAfterLostAnswer: existed.length });
    const firstRows = readFileSync(join(home, 'first.csv'), 'utf8').trim().split('\n').slice(1);
    expect(firstRows).toHaveLength(200);
    const firstStatus = new Map(firstRows.map((row) => [Number(row.split(',')[0]), row.split(',')[3]]));
    // The faults happened: resends of dropped records with a reference were answered "already exists", and
    // dropped records without one are uncertain. (A record with a reference can end uncertain too, when all its
    // attempts failed; the resume sends it again.)
    expect([...firstStatus.values()].filter((status) => status === 'already-existed').length).toBeGreaterThan(0);
    const uncertain = [...firstStatus]
      .filter(([number, status]) => status === 'uncertain' && !('businessReference' in batch[number - 1]!))
      .map(([number]) => number);
    expect(uncertain.length).toBeGreaterThan(0);

    // A dry run tells what the resume would do and sends nothing: the uncertain records without a reference are
    // held back, and it says why rather than calling them invalid.
    const held = await invoicesByNote(sandbox);
    const dry = await run(['--dry-run']);
    expect(dry.code, dry.stderr).toBe(6);
    expect(dry.stderr).toMatch(
      /A real run would resume from batch\.ndjson\.local\.journal\.ndjson: \d+ already created/,
    );
    expect(dry.stderr).toContain(
      `✖ Dry run: ${uncertain.length} of 200 records would not be sent: ${uncertain.length} sent by an earlier run ` +
        'with an unknown outcome; nothing was sent.',
    );
    expect(dry.stderr).not.toMatch(/records? (is|are) invalid/);
    expect(dry.stderr).toMatch(new RegExp(`\\n {2}uncertain, not sent again +${uncertain.length} {2}\\(`));
    expect(await invoicesByNote(sandbox)).toEqual(held);

    // The faults go on during the resume; more retries make it unlikely that a record fails all its attempts twice.
    const second = await run(['--report', 'second.ndjson', '--json', '--retries', '8']);
    expect(second.code, second.stderr).toBe(6);
    const report = JSON.parse(second.stdout) as JsonReport;
    expect(report.records.map((entry) => entry.record)).toEqual(batch.map((_, index) => index + 1));
    expect(report.summary).toMatchObject({ total: 200, failed: 0, uncertain: uncertain.length, notSent: 0 });
    const { created, createdEarlier, alreadyExisted } = report.summary as Record<string, number>;
    expect(created! + createdEarlier! + alreadyExisted!).toBe(200 - uncertain.length);
    expect(second.stderr).toMatch(/Resuming from batch\.ndjson\.local\.journal\.ndjson: \d+ already created/);
    // The uncertain ones may exist: the last line does not call them "not created".
    expect(second.stderr).toMatch(/✖ [\d,]+ of 200 records? may have been created: (its|their) outcome is unknown\./);
    expect(second.stderr).not.toContain('not created');
    const reportLines = readFileSync(join(home, 'second.ndjson'), 'utf8').trim().split('\n');
    expect(reportLines.map((line) => JSON.parse(line) as unknown)).toEqual(report.records);

    // Every record is in the sandbox exactly once, the uncertain ones included (their commit was dropped).
    const counts = await invoicesByNote(sandbox);
    expect(counts.size).toBe(200);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    for (const entry of report.records) {
      if (entry.status === 'uncertain') {
        expect(uncertain).toContain(entry.record);
        continue;
      }
      expect(['created-earlier', 'created', 'already-existed']).toContain(entry.status);
      expect(entry.invoiceNumber).toMatch(/^\d+$/);
    }
    const numbers = report.records.flatMap((entry) => (entry.invoiceNumber ? [entry.invoiceNumber] : []));
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
