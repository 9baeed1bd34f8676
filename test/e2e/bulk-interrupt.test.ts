import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/bulk/journal-state.js';
import { startTestServer, statisticsPath, type TestServer } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import {
  countEntries,
  invoicesByNote,
  journalEntries,
  records,
  serveSandbox,
  until,
  writeNdjson,
  type ServedSandbox,
} from '../bulk/helpers.js';
import { runSpawned } from '../helpers/spawned.js';
import { tempHome } from '../helpers/home.js';

// A bulk run killed (SIGKILL) or interrupted (SIGINT) at some instant, then run again: no record may be missing
// or created twice. The instant is chosen by watching the journal, never by sleeping.

let sandbox: ServedSandbox;

interface JsonSummary {
  summary: { created: number; alreadyExisted: number; notSent: number };
}

beforeAll(async () => {
  sandbox = await serveSandbox(['--latency', '20']);
});
afterAll(() => sandbox.stop());
afterEach(() => sandbox.api.reset(false));

function homeWith(count: number): { home: string; journal: string } {
  const home = tempHome();
  writeProfile(home, localProfile(sandbox.url, sandbox.token));
  writeNdjson(home, 'batch.ndjson', records(count, 3));
  return { home, journal: join(home, 'batch.ndjson.local.journal.ndjson') };
}

/** Every third record has no businessReference: only the journal keeps the rerun from creating it twice. */
const create = ['create', 'single', '--file', 'batch.ndjson', '--yes', '--concurrency', '4'];
/** With --reference-prefix every record has a businessReference, so any of them is safe to resend. */
const createWithReferences = [...create, '--reference-prefix', 'ci-'];

async function expectEachOnce(count: number): Promise<void> {
  const counts = await invoicesByNote(sandbox);
  expect(counts.size).toBe(count);
  expect([...counts.values()].every((times) => times === 1)).toBe(true);
}

describe('a bulk run stopped part-way', () => {
  it('loses nothing when killed with SIGKILL: the rerun creates the rest, none twice', async () => {
    const { home, journal } = homeWith(400);
    const run = runSpawned(create, { home });
    await until(() => countEntries(journal, 'created') >= 60, '60 created entries in the journal');
    run.child.kill('SIGKILL');
    expect((await run).signal).toBe('SIGKILL');
    expect((await sandbox.api.invoices()).length).toBeLessThan(400);
    // The journal is the plan: it held every record's body before the first request.
    expect(countEntries(journal, 'planned')).toBe(400);

    const rerun = await runSpawned([...create, '--json'], { env: { HOME: home } });
    expect(rerun.stderr).toMatch(/Resuming from batch\.ndjson\.local\.journal\.ndjson: \d+ already created/);
    const report = JSON.parse(rerun.stdout) as { records: Array<{ record: number; status: string }> };
    // A record without a businessReference that was in flight at the kill is uncertain (it may or may not exist);
    // every other record is in the sandbox exactly once.
    const uncertain = new Set(
      report.records.filter((entry) => entry.status === 'uncertain').map((entry) => entry.record),
    );
    expect(rerun.code, rerun.stderr).toBe(uncertain.size > 0 ? 6 : 0);
    expect(uncertain.size).toBeLessThanOrEqual(4);
    const counts = await invoicesByNote(sandbox);
    for (let index = 1; index <= 400; index++) {
      const times = counts.get(`Order ${index}`) ?? 0;
      if (uncertain.has(index)) expect(index % 3, `record ${index} is uncertain`).toBe(0);
      if (uncertain.has(index)) expect(times).toBeLessThanOrEqual(1);
      else expect(times, `record ${index}`).toBe(1);
    }
  }, 120_000);

  it('stops gracefully on SIGINT: exit 130, in-flight requests finished, summary printed, journal consistent', async () => {
    const { home, journal } = homeWith(400);
    const run = runSpawned([...create, '--json'], { home });
    await until(() => countEntries(journal, 'created') >= 40, '40 created entries in the journal');
    run.child.kill('SIGINT');
    const { code } = await run;
    expect(code).toBe(130);
    expect(run.output.stderr).toContain('Stopping: finishing what is in flight');
    expect(run.output.stderr).toMatch(/not sent +\d+/);
    expect(run.output.stderr).toContain('Interrupted: the requests in flight were finished');
    expect(run.output.stderr).not.toContain(sandbox.token);
    const summary = (JSON.parse(run.output.stdout) as JsonSummary).summary;
    expect(summary.notSent).toBeGreaterThan(0);
    expect(summary.created + summary.notSent).toBe(400);

    // Every record that was sent has its outcome in the journal: nothing was left in flight.
    const entries = journalEntries(journal);
    const sent = new Set(entries.filter((entry) => entry.type === 'sent').map((entry) => entry.key));
    const settled = new Set(entries.filter((entry) => entry.type === 'created').map((entry) => entry.key));
    expect(settled).toEqual(sent);
    expect((await sandbox.api.invoices()).length).toBe(summary.created);

    const rerun = await runSpawned(create, { env: { HOME: home } });
    expect(rerun.code, rerun.stderr).toBe(0);
    await expectEachOnce(400);
  }, 120_000);

  it('exits at once on a second SIGINT; the records in flight are resent safely by the next run', async () => {
    const { home, journal } = homeWith(200);
    // Slow answers keep requests in flight when the second signal comes.
    await sandbox.setFaults({ latencyMs: 3_000 });
    try {
      const run = runSpawned(createWithReferences, { home });
      await until(() => countEntries(journal, 'sent') >= 4, 'four requests in flight');
      run.child.kill('SIGINT');
      await until(() => run.output.stderr.includes('Stopping'), 'the first signal to be handled');
      run.child.kill('SIGINT');
      const { code } = await run;
      expect(code).toBe(130);
      expect(run.output.stderr).toContain('Interrupted again: stopping at once.');
      // The journal reads back whole, and shows the records left in flight as sent with no outcome.
      const state = await readJournal(journal);
      const inFlight = [...(state?.records.values() ?? [])].filter((entry) => entry.state === 'sent');
      expect(inFlight.length).toBeGreaterThan(0);
      expect(state?.damagedLines).toBe(0);
    } finally {
      await sandbox.setFaults({ latencyMs: 20 });
    }
    const rerun = await runSpawned([...createWithReferences, '--json'], { env: { HOME: home } });
    expect(rerun.code, rerun.stderr).toBe(0);
    const summary = (JSON.parse(rerun.stdout) as JsonSummary).summary;
    // Sent again, the records left in flight are created, or found to exist if the sandbox committed them.
    expect(summary.alreadyExisted + summary.created).toBe(200);
    await expectEachOnce(200);
  }, 120_000);
});

describe('Ctrl-C in a command that does not stop gracefully', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('ends it at once with exit 130', async () => {
    // A service that never answers the statistics request.
    server = await startTestServer(() => undefined);
    const home = tempHome();
    writeProfile(home, localProfile(server.url, 'interrupt-test-token-0123'));
    const run = runSpawned(['stats'], { home });
    await until(() => server.requests.some((request) => request.path === statisticsPath), 'the request to arrive');
    run.child.kill('SIGINT');
    expect((await run).code).toBe(130);
    expect(run.output.stderr).toMatch(/\nInterrupted\.\n$/);
    expect(run.output.stderr).not.toContain('Stopping');
  });
});
