import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalEntries, records, until, writeNdjson } from '../bulk/helpers.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runSpawned } from '../helpers/spawned.js';

// The ledger shared by processes of one machine: parallel CI shards writing at once lose no entry, and a run killed
// with SIGKILL leaves a ledger that opens, which the run's journal then completes.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** The ledger's invoices below `home`, as `invoices list --json --all` prints them. */
async function ledgerOf(home: string): Promise<Array<{ businessReference: string; status: string }>> {
  const result = await runInProcess(['invoices', 'list', '--json', '--all'], { home });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Array<{ businessReference: string; status: string }>;
}

describe('the ledger and many processes', () => {
  it('keeps every entry of two shards that write it at once', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'all.ndjson', records(60));
    const shards = ['1/2', '2/2'].map((shard) =>
      runSpawned(['create', 'single', '--file', 'all.ndjson', '--shard', shard, '--yes', '--concurrency', '8'], {
        home,
      }),
    );
    for (const result of await Promise.all(shards)) expect(result.code, result.stderr).toBe(0);
    const invoices = await ledgerOf(home);
    expect(invoices).toHaveLength(60);
    expect(new Set(invoices.map((invoice) => invoice.businessReference)).size).toBe(60);
  });

  it('records every outcome of a run while another process holds the ledger, once it lets go', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'first.ndjson', records(1));
    expect((await runInProcess(['create', 'single', '--file', 'first.ndjson', '--yes'], { home })).code).toBe(0);
    const other = new DatabaseSync(join(home, '.local', 'state', 'einvoice', 'ledger', 'local.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    let released = false;
    try {
      writeNdjson(
        home,
        'held.ndjson',
        records(30).map((record) => ({ ...record, note: `Held ${String(record.note)}` })),
      );
      const journal = join(home, 'held.journal.ndjson');
      const run = runSpawned(
        ['create', 'single', '--file', 'held.ndjson', '--yes', '--journal', 'held.journal.ndjson'],
        {
          home,
        },
      );
      await until(
        () => journalEntries(journal).filter((entry) => entry.type === 'created').length === 30,
        'the run to create its 30 invoices',
      );
      other.exec('COMMIT');
      released = true;
      const result = await run;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toContain('could not be written');
    } finally {
      if (!released) other.exec('ROLLBACK');
      other.close();
    }
    // The first record of the second file is the invoice the first run created (the same businessReference, amount
    // and sendingDate: the service said it already held it), so the ledger holds it once.
    expect(await ledgerOf(home)).toHaveLength(30);
  });

  it('opens whole after a run is killed with SIGKILL, and the journal brings in what the run had not recorded', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'slow.ndjson', records(400));
    const journal = join(home, 'slow.journal.ndjson');
    const run = runSpawned(
      ['create', 'single', '--file', 'slow.ndjson', '--yes', '--journal', 'slow.journal.ndjson', '--concurrency', '2'],
      { home },
    );
    await until(
      () => journalEntries(journal).filter((entry) => entry.type === 'created').length >= 60,
      'the run to create 60 invoices',
    );
    run.child.kill('SIGKILL');
    await run.then(
      () => undefined,
      () => undefined,
    );
    const created = journalEntries(journal).filter((entry) => entry.type === 'created').length;
    expect(created).toBeLessThan(400);
    const before = await ledgerOf(home);
    expect(before.length).toBeLessThanOrEqual(created);
    const imported = await runInProcess(['invoices', 'import', 'slow.journal.ndjson'], { home });
    expect(imported.code, imported.stderr).toBe(0);
    const after = await ledgerOf(home);
    expect(after.filter((invoice) => invoice.status === 'created')).toHaveLength(created);
  });
});
