import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalEntries, record, writeNdjson } from '../bulk/helpers.js';
import { serversClosedAfterEach } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';
import { newToken } from '../helpers/secrets.js';
import { folderWithProfile } from '../helpers/profile.js';

// A service that stops answering stops a bulk run: time-outs and connections that never open count toward the
// stop rule, and while they last one request at a time goes out, so only the few records in flight when the
// service fell silent (and then one per probe) may be left uncertain. A connection that never opened sent nothing.

const serve = serversClosedAfterEach();

interface JsonReport {
  summary: Record<string, number>;
  records: Array<{ record: number; status: string; error?: string }>;
}

/** `count` records without a businessReference: each one sent into silence becomes uncertain. */
const withoutReferences = (count: number) => Array.from({ length: count }, (_, index) => record(index + 1));

describe('a service that accepts connections and never answers', () => {
  it('200 records without references, --timeout 1 --concurrency 8: at most 10 requests, the rest not sent', async () => {
    // The requests are read whole and never answered.
    const service = await serve(() => undefined);
    const cwd = folderWithProfile(service.url, newToken('silent'));
    writeNdjson(cwd, 'batch.ndjson', withoutReferences(200));
    const started = Date.now();
    const result = await runInProcess(
      ['create', 'single', '--file', 'batch.ndjson', '--yes', '--json', '--timeout', '1', '--concurrency', '8'],
      { cwd },
    );
    const took = Date.now() - started;

    expect(result.code, result.stderr).toBe(5);
    expect(took).toBeLessThan(40_000);
    // The 8 in flight when the service fell silent, then one probe at a time up to the stop rule's 10.
    expect(service.requests.length).toBeGreaterThanOrEqual(8);
    expect(service.requests.length).toBeLessThanOrEqual(10);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.summary).toMatchObject({
      uncertain: service.requests.length,
      notSent: 200 - service.requests.length,
    });
    const sentNotes = new Set(service.requests.map((request) => (JSON.parse(request.body) as { note: string }).note));
    for (const each of report.records) {
      expect(each.status, `record ${each.record}`).toBe(
        sentNotes.has(`Order ${each.record}`) ? 'uncertain' : 'not-sent',
      );
    }
    expect(result.stderr).toContain(
      `Stopped after 10 failed attempts in a row that every record would meet (no answer within 1 s); ` +
        `${200 - service.requests.length} records were not sent, and a rerun sends them.`,
    );
    // The journal agrees: only the records sent have a `sent` entry.
    const journal = journalEntries(join(cwd, 'batch.ndjson.local.journal.ndjson'));
    expect(journal.filter((entry) => entry.type === 'sent')).toHaveLength(service.requests.length);
  });
});

describe('a service whose connections never open', () => {
  const sockets: Socket[] = [];

  it('a connect time-out is "not sent", never uncertain, and counts toward the stop rule', async () => {
    // TCP is accepted but TLS never answers: the connection to an https service never opens.
    const tcp = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const { port } = tcp.address() as AddressInfo;
    try {
      const cwd = folderWithProfile(`https://127.0.0.1:${port}`, newToken('never-open'));
      writeNdjson(cwd, 'batch.ndjson', withoutReferences(40));
      const result = await runInProcess(
        [
          ...['create', 'single', '--file', 'batch.ndjson', '--yes', '--json', '--timeout', '1'],
          ...['--concurrency', '4', '--retries', '0', '--stop-after-failures', '4'],
        ],
        { cwd },
      );
      expect(result.code, result.stderr).toBe(5);
      const report = JSON.parse(result.stdout) as JsonReport;
      expect(report.summary).toMatchObject({ uncertain: 0, failed: 4, notSent: 36 });
      expect(report.records.find((each) => each.status === 'failed')?.error).toContain(
        'could not be sent in time (allowed 1 s): nothing reached the service',
      );
      expect(result.stderr).toContain('(no connection opened within 1 s)');
      const journal = journalEntries(join(cwd, 'batch.ndjson.local.journal.ndjson'));
      expect(journal.filter((entry) => entry.type === 'uncertain')).toEqual([]);
    } finally {
      sockets.splice(0).forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    }
  });
});
