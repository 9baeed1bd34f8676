import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withoutSqliteWarning } from '../../src/local-database.js';
import { startSandbox } from '../../src/sandbox/index.js';

// Node 22 prints an ExperimentalWarning when node:sqlite loads; the sandbox leaves out that one warning, no other.

describe('the warning of node:sqlite on Node 22', () => {
  const passed = (...args: unknown[]) => {
    const seen: unknown[][] = [];
    const emit = withoutSqliteWarning(((...forwarded: unknown[]) => void seen.push(forwarded)) as never);
    (emit as (...values: unknown[]) => void)(...args);
    return seen;
  };
  const text = 'SQLite is an experimental feature and might change at any time';

  it('is left out, however Node gives its type', () => {
    expect(passed(text, 'ExperimentalWarning')).toEqual([]);
    expect(passed(text, { type: 'ExperimentalWarning' })).toEqual([]);
    expect(passed(Object.assign(new Error(text), { name: 'ExperimentalWarning' }))).toEqual([]);
  });

  it('is the only one: other warnings, and the same words of another type, pass as they were given', () => {
    const others: unknown[][] = [
      ['VM Modules is an experimental feature and might change at any time', 'ExperimentalWarning'],
      [text, 'DeprecationWarning'],
      [text],
      ['Possible EventEmitter memory leak detected', { type: 'MaxListenersExceededWarning', code: 'X' }],
    ];
    for (const args of others) expect(passed(...args)).toEqual([args]);
  });

  it('is filtered only while the module loads', async () => {
    const emitWarning = process.emitWarning;
    const sandbox = await startSandbox();
    await sandbox.close();
    expect(process.emitWarning).toBe(emitWarning);
  });
});

describe('a new state file opened by two processes at once', () => {
  it('waits while the other writes its schema, rather than fail on "database is locked"', async () => {
    const { DatabaseSync } = await import('node:sqlite');
    const file = join(mkdtempSync(join(tmpdir(), 'einvoice-db-')), 'sandbox.sqlite');
    // Another process has just made the file and holds its first write transaction (its schema and demo invoices).
    const other = new DatabaseSync(file);
    other.exec('BEGIN IMMEDIATE');
    other.exec('CREATE TABLE held (x)');
    setTimeout(() => {
      other.exec('ROLLBACK');
      other.close();
    }, 200);
    const sandbox = await startSandbox({ stateFile: file, demo: true });
    try {
      const statistics = (await (
        await fetch(`${sandbox.url}/invoice-api/invoices/statistics`, {
          headers: { authorization: `Bearer ${sandbox.token}` },
        })
      ).json()) as { allInvoices: { totalCount: number } };
      expect(statistics.allInvoices.totalCount).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });
});
