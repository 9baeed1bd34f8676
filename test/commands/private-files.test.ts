import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { records, writeNdjson } from '../bulk/helpers.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';

// Files that hold customers' data are the user's alone (0600, in folders of 0700 the CLI makes), and the list of
// invalid records that stops at 20 says where to find them all. Pipes are tested spawned, in test/e2e/pipes.test.ts.

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('file modes', () => {
  it('a journal and a report are created 0600', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'batch.ndjson', records(3));
    const result = await runInProcess(
      ['create', 'single', '--file', 'batch.ndjson', '--yes', '--report', 'report.csv'],
      { home },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(modeOf(join(home, 'batch.ndjson.local.journal.ndjson'))).toBe(0o600);
    expect(modeOf(join(home, 'report.csv'))).toBe(0o600);
  });

  it('a request saved with --save is created 0600', async () => {
    const home = homeFor(sandbox);
    const result = await runInProcess(
      [
        'create',
        ...['single', '--customer-name', 'Amr', '--customer-mobile', '+201012345678', '--amount', '10', '--note', 'x'],
        ...['--sending-date', '2030-03-01', '--release-date', '2030-03-01', '--expiry-date', '2030-03-31'],
        ...['--dry-run', '--save', 'saved.json'],
      ],
      { home },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(modeOf(join(home, 'saved.json'))).toBe(0o600);
  });

  it('a report, a saved request and a journal that were there already, readable by others, become 0600', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'batch.ndjson', records(3));
    for (const name of ['report.csv', 'saved.json', 'batch.ndjson.local.journal.ndjson']) {
      writeFileSync(join(home, name), '', { mode: 0o644 });
      chmodSync(join(home, name), 0o644);
    }
    const bulk = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--yes', '--report', 'report.csv'], {
      home,
    });
    expect(bulk.code, bulk.stderr).toBe(0);
    const one = await runInProcess(
      [
        'create',
        ...['single', '--customer-name', 'Amr', '--customer-mobile', '+201012345678', '--amount', '10', '--note', 'x'],
        ...['--sending-date', '2030-03-01', '--release-date', '2030-03-01', '--expiry-date', '2030-03-31'],
        ...['--dry-run', '--save', 'saved.json'],
      ],
      { home },
    );
    expect(one.code, one.stderr).toBe(0);
    for (const name of ['report.csv', 'saved.json', 'batch.ndjson.local.journal.ndjson']) {
      expect(modeOf(join(home, name)), name).toBe(0o600);
    }
    expect(readFileSync(join(home, 'report.csv'), 'utf8')).toContain('REF-3');
  });
});

describe('invalid records: every problem can be had', () => {
  it('the list that stops at 20 says --report lists them all', async () => {
    const home = homeFor(sandbox);
    writeNdjson(
      home,
      'batch.ndjson',
      records(25).map((value, index) => ({ ...value, [`extra${index}`]: 1 })),
    );
    const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('  ...and 5 more');
    expect(result.stderr).toContain('--report FILE lists all 25 problems.');
  });
});
