import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/home.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { runSpawned } from '../helpers/spawned.js';
import { countEntries, journalEntries, serveSandbox, until, type ServedSandbox } from '../bulk/helpers.js';

// A run of refunds killed (SIGKILL) part-way, then run again twice: a refund has no idempotency key, so one whose
// request may have left is never sent again. The instant is chosen by watching the journal, never by sleeping.

let sandbox: ServedSandbox;

beforeAll(async () => {
  sandbox = await serveSandbox(['--latency', '20']);
});
afterAll(() => sandbox.stop());

interface JsonReport {
  records: Array<{ invoiceNumber: string; status: string; error?: string }>;
}

/** A home whose `refunds.csv` refunds `count` paid invoices of the sandbox, 25 of each. */
async function homeWithRefunds(count: number): Promise<{ home: string; journal: string }> {
  const home = tempHome();
  writeProfile(home, localProfile(sandbox.url, sandbox.token));
  const rows = ['invoiceNumber,amount,reason,orderReferenceNumber'];
  for (let index = 0; index < count; index++) {
    const { invoiceNumber, orderReferenceNumber } = await sandbox.api.createPaidInvoice({ amount: 100 });
    rows.push(`${invoiceNumber},25,Returned,${orderReferenceNumber}`);
  }
  writeFileSync(join(home, 'refunds.csv'), `${rows.join('\n')}\n`);
  return { home, journal: join(home, 'refunds.csv.local.journal.ndjson') };
}

const refund = ['refund', '--file', 'refunds.csv', '--yes', '--concurrency', '4'];

describe('refunds from a file stopped part-way', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'stops gracefully on %s: exit %i, the refunds in flight finished; the rerun refunds the rest',
    async (signal, exit) => {
      const { home, journal } = await homeWithRefunds(60);
      const run = runSpawned([...refund, '--json'], { home });
      await until(() => countEntries(journal, 'created') >= 15, '15 refunds done in the journal');
      run.child.kill(signal);
      expect((await run).code).toBe(exit);
      expect(run.output.stderr).toContain('Stopping: finishing what is in flight');
      expect(run.output.stderr).toContain('Interrupted: the requests in flight were finished');
      const report = JSON.parse(run.output.stdout) as JsonReport;
      expect(report.records.filter((record) => record.status === 'uncertain')).toEqual([]);
      // Every refund that was sent has its outcome in the journal: none was left in flight.
      const entries = journalEntries(journal);
      const sent = new Set(entries.filter((entry) => entry.type === 'sent').map((entry) => entry.key));
      const done = new Set(entries.filter((entry) => entry.type === 'created').map((entry) => entry.key));
      expect(done).toEqual(sent);

      const rerun = await runSpawned([...refund, '--json'], { home });
      expect(rerun.code, rerun.stderr).toBe(0);
      const rerunReport = JSON.parse(rerun.stdout) as JsonReport;
      expect(rerunReport.records.map((record) => record.status).sort()).toEqual(
        report.records.map((record) => (record.status === 'refunded' ? 'refunded-earlier' : 'refunded')).sort(),
      );
      for (const record of rerunReport.records) {
        expect((await sandbox.api.invoice(record.invoiceNumber))?.status, record.invoiceNumber).toBe('REFUNDED');
      }
    },
    120_000,
  );

  it('killed with SIGKILL: the reruns refund the rest, none twice, and hold the ones in flight as uncertain', async () => {
    const { home, journal } = await homeWithRefunds(60);
    const run = runSpawned(refund, { home });
    await until(() => countEntries(journal, 'created') >= 15, '15 refunds done in the journal');
    run.child.kill('SIGKILL');
    expect((await run).signal).toBe('SIGKILL');
    // The refunds whose request was out at the kill: journaled as sent, with no outcome.
    const entries = journalEntries(journal) as Array<{ type: string; key: string; body?: { invoiceNumber: string } }>;
    const numberOf = new Map(
      entries.filter((entry) => entry.body).map((entry) => [entry.key, entry.body?.invoiceNumber]),
    );
    const ended = new Set(
      entries.filter((entry) => entry.type !== 'sent' && entry.type !== 'planned').map((entry) => entry.key),
    );
    const inFlight = entries
      .filter((entry) => entry.type === 'sent' && !ended.has(entry.key))
      .map((entry) => numberOf.get(entry.key));

    for (let rerun = 0; rerun < 2; rerun++) {
      const result = await runSpawned([...refund, '--json'], { home });
      const report = JSON.parse(result.stdout) as JsonReport;
      const uncertain = report.records.filter((record) => record.status === 'uncertain');
      expect(result.code, result.stderr).toBe(uncertain.length > 0 ? 6 : 0);
      // Exactly the refunds in flight at the kill: none of them is sent again, whatever the service did with it.
      expect(uncertain.map((record) => record.invoiceNumber).sort()).toEqual(inFlight.sort());
      expect(report.records.filter((record) => record.status === 'failed')).toEqual([]);
      for (const record of report.records) {
        const status = (await sandbox.api.invoice(record.invoiceNumber))?.status;
        if (record.status !== 'uncertain') expect(status, record.invoiceNumber).toBe('REFUNDED');
      }
    }
    // Three processes and 60 paid invoices: on a machine whose cores are busy elsewhere, more than the default.
  }, 120_000);
});
