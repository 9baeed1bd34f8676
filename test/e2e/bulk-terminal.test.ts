import { readdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { keys, spawnCliInPty, type PtySession } from '../helpers/pty.js';
import { invoicesByNote, records, serveSandbox, writeNdjson, type ServedSandbox } from '../bulk/helpers.js';
import { tempHome } from '../helpers/home.js';

// Bulk creation in a terminal: it asks before sending, draws a progress bar on stderr, and Ctrl-C stops it.

let sandbox: ServedSandbox;
let session: PtySession | undefined;

beforeAll(async () => {
  sandbox = await serveSandbox(['--latency', '20']);
});
afterAll(() => sandbox.stop());
afterEach(async () => {
  session?.kill();
  session = undefined;
  await sandbox.api.reset(false);
});

function homeWith(count: number): string {
  const home = tempHome();
  writeProfile(home, localProfile(sandbox.url, sandbox.token));
  writeNdjson(home, 'batch.ndjson', records(count));
  return home;
}

describe('bulk creation in a terminal', () => {
  it('asks before sending, then shows progress: done/total, rate, ETA and failures', async () => {
    const home = homeWith(300);
    session = spawnCliInPty(['create', 'single', '--file', 'batch.ndjson', '--concurrency', '2'], { home });
    await session.answer('Create 300 single invoices in local?', 'y');
    await session.waitFor(/\[[#-]+\] \d+\/300 sent \(\d+%\) +[\d.]+\/s +ETA \S+ +failed 0 +uncertain 0/);
    expect((await session.exited).code).toBe(0);
    expect(session.screen()).toMatch(/created +300/);
    expect((await invoicesByNote(sandbox)).size).toBe(300);
  }, 60_000);

  it.each([
    [5, 'Create 5 single invoices in local?'],
    // One invoice is asked about in the singular.
    [1, 'Create 1 single invoice in local?'],
  ])('sends nothing when the merchant says no (%i records)', async (count, question) => {
    const home = homeWith(count);
    session = spawnCliInPty(['create', 'single', '--file', 'batch.ndjson'], { home });
    await session.answer(question, 'n');
    expect((await session.exited).code).toBe(130);
    expect(session.screen()).toContain('Cancelled: nothing was sent.');
    expect((await sandbox.api.invoices()).length).toBe(0);
  });

  it('ends the question on SIGTERM while it asks: exit 143, nothing sent, no lock or journal left', async () => {
    const home = homeWith(5);
    session = spawnCliInPty(['create', 'single', '--file', 'batch.ndjson'], { home });
    await session.waitFor('Create 5 single invoices in local?');
    session.signal('SIGTERM');
    expect((await session.exited).code).toBe(143);
    expect(session.screen()).toContain('Interrupted: nothing was sent.');
    expect(session.screen()).not.toContain('finishing what is in flight');
    // The plan journaled every body before the question; a run that sends nothing takes its journal back.
    expect(readdirSync(home).filter((name) => /\.(lock|journal\.ndjson)$/.test(name))).toEqual([]);
    expect((await sandbox.api.invoices()).length).toBe(0);
  });

  it('stops on Ctrl-C with exit 130 and the summary', async () => {
    const home = homeWith(2000);
    session = spawnCliInPty(['create', 'single', '--file', 'batch.ndjson', '--yes', '--concurrency', '2'], { home });
    await session.waitFor(/\] [1-9]\d*\/2000/);
    session.type(keys.ctrlC);
    expect((await session.exited).code).toBe(130);
    expect(session.screen()).toMatch(/not sent +[\d,]+/);
    const summary = /created +([\d,]+)/.exec(session.screen());
    expect(Number(summary?.[1]?.replace(/,/g, ''))).toBe((await sandbox.api.invoices()).length);
  }, 60_000);
});
