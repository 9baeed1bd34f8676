import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { record, writeNdjson } from '../bulk/helpers.js';
import { serversClosedAfterEach, type TestHandler } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';
import { folderWithProfile } from '../helpers/profile.js';
import { newToken } from '../helpers/secrets.js';
import { smallDisk } from '../helpers/small-disk.js';

// The ledger never changes a run: when it cannot be written in the middle of one (the disk fills, its file is
// removed), the run's outcome is as it would have been, it says so once, and names the journal that brings the rest in.

const serve = serversClosedAfterEach();

/** A service that creates each invoice, and calls `onRequest` with each request's index. */
function creating(onRequest: (index: number) => void): TestHandler {
  let next = 1000001;
  return (_request, response, index) => {
    onRequest(index);
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end(String(next++));
  };
}

/** Runs 60 records against `service`, with the ledger in `ledgerDir`; the run's result and how to import later. */
async function runWithLedgerIn(url: string, ledgerDir: string) {
  const cwd = folderWithProfile(url, newToken('ledger-fails'));
  writeNdjson(
    cwd,
    'batch.ndjson',
    Array.from({ length: 60 }, (_, index) => record(index + 1, { businessReference: `REF-${index + 1}` })),
  );
  const env = { EINVOICE_LEDGER_DIR: ledgerDir };
  const run = await runInProcess(
    ['create', 'single', '--file', 'batch.ndjson', '--journal', 'run.ndjson', '--yes', '--json', '--concurrency', '2'],
    { cwd, env },
  );
  return { run, cwd, env };
}

async function listed(cwd: string, env: Record<string, string>): Promise<unknown[]> {
  const result = await runInProcess(['invoices', 'list', '--json'], { cwd, env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as unknown[];
}

describe('a ledger that cannot be written in the middle of a run', () => {
  it('a full disk: the run creates every invoice and exits 0, says so once, and names the journal to import', async () => {
    const disk = smallDisk(512);
    const service = await serve(creating((index) => index === 30 && disk.fill()));
    const { run, cwd, env } = await runWithLedgerIn(service.url, disk.dir);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { summary: { created: number } }).summary.created).toBe(60);
    expect(run.stderr.match(/could not be written/g)).toHaveLength(1);
    expect(run.stderr).toContain('einvoice invoices import run.ndjson brings them in once it can be written.');
    disk.free();
    const imported = await runInProcess(['invoices', 'import', 'run.ndjson'], { cwd, env });
    expect(imported.code, imported.stderr).toBe(0);
    expect(await listed(cwd, env)).toHaveLength(60);
  });

  it('its file removed: the run goes on as it would, says so once, and the journal brings every invoice back', async () => {
    const { dir } = { dir: join(folderWithProfile('http://127.0.0.1:1', 'unused'), 'ledgers') };
    const service = await serve(
      creating((index) => {
        if (index === 30) rmSync(join(dir, 'local.sqlite'));
      }),
    );
    const { run, cwd, env } = await runWithLedgerIn(service.url, dir);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { summary: { created: number } }).summary.created).toBe(60);
    expect(run.stderr.match(/could not be written/g)).toHaveLength(1);
    expect(run.stderr).toContain(`The ledger ${join(dir, 'local.sqlite')} could not be written (it was removed`);
    expect(run.stderr).toContain('einvoice invoices import run.ndjson');
    const imported = await runInProcess(['invoices', 'import', 'run.ndjson'], { cwd, env });
    expect(imported.code, imported.stderr).toBe(0);
    expect(await listed(cwd, env)).toHaveLength(60);
  });
});
