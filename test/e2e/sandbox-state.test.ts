import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { StoredInvoice } from '../../src/sandbox/state.js';
import { openStore } from '../../src/sandbox/store.js';
import { countEntries, records, until, writeNdjson } from '../bulk/helpers.js';
import { runSpawned } from '../helpers/spawned.js';
import { tempHome } from '../helpers/home.js';

// The built-in sandbox's state file, as merchants meet it: a SQLite database that several einvoice processes write
// at once, that survives a process killed in the middle of a run, and that loads without a warning on any Node.

function stateFileOf(home: string): string {
  return join(home, '.local', 'state', 'einvoice', 'sandbox.sqlite');
}

/** The business references of every invoice the built-in sandbox holds, read from `sandbox export`. */
async function exportedReferences(home: string): Promise<string[]> {
  const exported = await runSpawned(['sandbox', 'export'], { env: { HOME: home } });
  expect(exported.code, exported.stderr).toBe(0);
  const state = JSON.parse(exported.stdout) as { invoices: Array<{ businessReference?: string }> };
  return state.invoices.map((invoice) => invoice.businessReference ?? '');
}

/** Records whose business references begin with `prefix`, so two files never hold the same invoice. */
function batch(home: string, name: string, count: number, prefix: string): string {
  const values = records(count).map((value) => ({
    ...value,
    businessReference: `${prefix}${value.businessReference}`,
  }));
  return writeNdjson(home, name, values);
}

describe("the built-in sandbox's state file", () => {
  it('takes two bulk runs at once, losing nothing, and is a SQLite database', async () => {
    const home = tempHome();
    batch(home, 'a.ndjson', 100, 'A-');
    batch(home, 'b.ndjson', 100, 'B-');
    const [a, b] = await Promise.all(
      ['a.ndjson', 'b.ndjson'].map((file) =>
        runSpawned(['create', 'single', '--file', file, '--yes', '--json'], { env: { HOME: home } }),
      ),
    );
    expect(a?.code, a?.stderr).toBe(0);
    expect(b?.code, b?.stderr).toBe(0);
    const references = await exportedReferences(home);
    for (const prefix of ['A-', 'B-']) {
      const created = references.filter((reference) => reference.startsWith(prefix));
      expect(new Set(created).size, prefix).toBe(100);
      expect(created, prefix).toHaveLength(100);
    }
    expect(readFileSync(stateFileOf(home)).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
  });

  it('is whole after a run is killed (SIGKILL) in the middle: stats works and the database checks ok', async () => {
    const home = tempHome();
    batch(home, 'big.ndjson', 1000, 'K-');
    const journal = join(home, 'big.ndjson.sandbox.journal.ndjson');
    const run = runSpawned(['create', 'single', '--file', 'big.ndjson', '--yes'], { home });
    await until(() => countEntries(journal, 'created') >= 100, '100 created entries in the journal');
    run.child.kill('SIGKILL');
    expect((await run).signal).toBe('SIGKILL');

    const stats = await runSpawned(['stats', '--json'], { env: { HOME: home } });
    expect(stats.code, stats.stderr).toBe(0);
    const created = (JSON.parse(stats.stdout) as { allInvoices: { totalCount: number } }).allInvoices.totalCount;
    // The demo invoices, and at least every invoice the journal saw created.
    expect(created).toBeGreaterThanOrEqual(8 + 100);
    const database = new DatabaseSync(stateFileOf(home), { readOnly: true });
    try {
      expect(database.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      database.close();
    }
  });

  it('loads without a warning: stats prints no ExperimentalWarning, whichever Node runs it', async () => {
    const home = tempHome();
    const stats = await runSpawned(['stats'], { env: { HOME: home } });
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stderr).not.toMatch(/ExperimentalWarning|SQLite is an experimental feature/);
    expect(readFileSync(stateFileOf(home)).subarray(0, 15).toString()).toBe('SQLite format 3');
  });
});

describe('einvoice sandbox export', () => {
  it("prints the built-in sandbox's whole state as JSON, without the tokens it issued", async () => {
    const home = tempHome();
    const paid = await runSpawned(['sandbox', 'pay', '1000001', '--json'], { env: { HOME: home } });
    expect(paid.code, paid.stderr).toBe(0);
    const exported = await runSpawned(['sandbox', 'export'], { env: { HOME: home } });
    expect(exported.code, exported.stderr).toBe(0);
    const state = JSON.parse(exported.stdout) as {
      version: number;
      nextInvoiceNumber: string;
      invoices: Array<{ invoiceNumber: string; status: string; request: unknown }>;
      tokens: unknown[];
    };
    expect(state).toMatchObject({ version: 1, nextInvoiceNumber: '1000009', tokens: [] });
    expect(state.invoices).toHaveLength(8);
    expect(state.invoices[0]).toMatchObject({ invoiceNumber: '1000001', status: 'PAID' });
    expect(exported.stdout).toBe(`${JSON.stringify(state, null, 2)}\n`);
  });

  it('ends quietly, exit 0, when its reader leaves early (| head)', async () => {
    const home = tempHome();
    // A state large enough to be printed in many pieces, written to a database directly.
    const invoice = (index: number) => ({
      invoiceNumber: String(1000000 + index),
      kind: 'single',
      status: 'UNPAID',
      amount: 10,
      sendingDate: '2030-01-01',
      releaseDate: '2030-01-01T00:00:00.000Z',
      expiryDate: '2030-02-01T00:00:00.000Z',
      createdAt: '2026-01-01T00:00:00.000Z',
      request: { note: 'x'.repeat(1000) },
      refunds: [],
    });
    const invoices = Array.from({ length: 500 }, (_, index) => invoice(index + 1)) as unknown as StoredInvoice[];
    const state = { version: 1, nextInvoiceNumber: '1000501', nextOrderReference: '1', clockOffsetMs: 0 } as const;
    const file = join(home, 'big.sqlite');
    (await openStore({ file, create: () => ({ ...state, invoices, outbox: [], tokens: [] }) })).close();
    const run = runSpawned(['sandbox', 'export', '--state', 'big.sqlite'], { home, printsToken: true });
    // The reader leaves after the first chunk, as `| head -c 1` does.
    run.child.stdout.once('data', () => run.child.stdout.destroy());
    const { code, stderr } = await run;
    expect(stderr).not.toMatch(/EPIPE|Unexpected error/);
    expect(code).toBe(0);
  });

  it('reads the file of a served sandbox with --state, and refuses one that is not there (exit 2) or not one (exit 10)', async () => {
    const home = tempHome();
    const missing = await runSpawned(['sandbox', 'export', '--state', 'nowhere.sqlite'], { env: { HOME: home } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`There is no sandbox state file ${join(home, 'nowhere.sqlite')}.`);
    const created = await runSpawned(['stats'], { env: { HOME: home, EINVOICE_SANDBOX_STATE: join(home, 'mine.db') } });
    expect(created.code, created.stderr).toBe(0);
    const exported = await runSpawned(['sandbox', 'export', '--state', 'mine.db'], { env: { HOME: home } });
    expect(exported.code, exported.stderr).toBe(0);
    expect((JSON.parse(exported.stdout) as { invoices: unknown[] }).invoices).toHaveLength(8);
    // What export printed is for reading, not a state file: it is refused, and left as it was.
    writeFileSync(join(home, 'printed.json'), exported.stdout);
    const printed = await runSpawned(['sandbox', 'export', '--state', 'printed.json'], { env: { HOME: home } });
    expect(printed.code).toBe(10);
    expect(printed.stderr).toContain(
      `The sandbox's state file ${join(home, 'printed.json')} is not a database einvoice made: it is not a SQLite file.`,
    );
    expect(readFileSync(join(home, 'printed.json'), 'utf8')).toBe(exported.stdout);
  });
});
