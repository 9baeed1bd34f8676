import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createServiceClient } from '../../src/api/client.js';
import { JournalWriter } from '../../src/bulk/journal.js';
import { RecordResults, type RecordResult } from '../../src/bulk/results.js';
import { invoiceSending, refundSending } from '../../src/bulk/kind.js';
import { sendRecords, type SendEntry } from '../../src/bulk/send.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/http-server.js';
import { journalEntries, tempDir, until, withFileCalls } from './helpers.js';

// The rule that keeps a record without a businessReference safe against a crash: its `sent` entry is on disk before
// its request leaves. Here the journal's durable write is held open: no request for such a record reaches the
// service until it is released, while records with a reference go out without waiting for it.

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A real journal whose `durable()` resolves only once `release()` is called (and the real sync is done). */
async function heldJournal(path: string) {
  const real = await JournalWriter.open(path);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = { waits: 0 };
  const journal = {
    path: real.path,
    append: (entry: Parameters<JournalWriter['append']>[0]) => real.append(entry),
    durable: async () => {
      held.waits += 1;
      await released;
      await real.durable();
    },
    close: () => real.close(),
  } as unknown as JournalWriter;
  return { journal, release, held, close: () => real.close() };
}

const noteOf = (body: string) => (JSON.parse(body) as { note: string }).note;

it('holds a record without a reference until its `sent` entry is durable; one with a reference does not wait', async () => {
  let next = 1000001;
  const server = await startTestServer((_request, response) => {
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end(String(next++));
  });
  servers.push(server);
  const path = join(tempDir(), 'journal.ndjson');
  const { journal, release, held, close } = await heldJournal(path);
  // Record 1 has no reference; records 2 to 6 have one. The first worker takes record 1, the second the others.
  const entries: SendEntry[] = Array.from({ length: 6 }, (_, index) => ({
    index,
    key: `key-${index + 1}`,
    previouslySent: false,
    businessReference: index === 0 ? undefined : `R${index + 1}`,
    bodyJson: JSON.stringify({
      customer: { name: `C${index + 1}`, mobile: '+201001234567' },
      amount: 10,
      sendingDate: '2030-01-01',
      expiryDate: '2030-02-01T00:00:00.000Z',
      releaseDate: '2030-01-01T00:00:00.000Z',
      ...(index === 0 ? {} : { businessReference: `R${index + 1}` }),
      note: `Order ${index + 1}`,
    }),
  }));
  const results = RecordResults.of(entries.map((_, index): RecordResult => ({ record: index + 1, status: 'pending' })));
  const sending = sendRecords({
    kind: invoiceSending('single'),
    client: createServiceClient({ baseUrl: server.url, token: 'journal-wait-token-0123', timeoutMs: 5_000 }),
    journal,
    entries: (async function* () {
      yield* entries;
    })(),
    results,
    concurrency: 2,
    retries: 0,
  });

  // Five full exchanges with the service while the durable write is held: record 1's request, had it left when
  // it was journaled, would have arrived long before.
  await until(() => results.count('created') >= 5, 'the records with a reference to be created', 10_000);
  expect(server.requests.map((request) => noteOf(request.body))).toEqual([
    'Order 2',
    'Order 3',
    'Order 4',
    'Order 5',
    'Order 6',
  ]);
  expect(results.status(0)).toBe('pending');
  expect(held.waits).toBe(1);

  release();
  const outcome = await sending;
  await close();
  expect(outcome).toEqual({ interrupted: false });
  expect(server.requests.map((request) => noteOf(request.body)).at(-1)).toBe('Order 1');
  expect(results.status(0)).toBe('created');
  const ofRecord1 = journalEntries(path).filter((entry) => entry.key === 'key-1');
  expect(ofRecord1.map((entry) => entry.type)).toEqual(['sent', 'created']);
});

it('sends a refund only once its `sent` entry is synced to the disk', async () => {
  const path = join(tempDir(), 'journal.ndjson');
  // What the journal's last sync put on the disk.
  let onDisk = '';
  const sentOnDisk = () =>
    onDisk
      .split('\n')
      .filter((line) => line.startsWith('{"type":"sent"'))
      .map((line) => (JSON.parse(line) as { key: string }).key);
  // Each refund's invoice number, and whether its `sent` entry was on the disk when its request arrived.
  const arrivals: Array<{ invoiceNumber: string; sentOnDisk: boolean }> = [];
  const server = await startTestServer((request, response) => {
    const invoiceNumber = /invoices\/(\d+)\/refund$/.exec(request.path)?.[1] ?? '';
    arrivals.push({ invoiceNumber, sentOnDisk: sentOnDisk().includes(`refund-${invoiceNumber}`) });
    sendJson(response, 200, {});
  });
  servers.push(server);
  await withFileCalls(
    {
      fdatasyncSync: (sync) => (fd) => {
        sync(fd);
        onDisk = readFileSync(path, 'utf8');
      },
    },
    async () => {
      // An interval no test outlasts: the only syncs are those a refund waits for.
      const journal = await JournalWriter.open(path, { syncEveryMs: 600_000 });
      const invoiceNumbers = ['1000001', '1000002', '1000003', '1000004', '1000005', '1000006'];
      const entries: SendEntry[] = invoiceNumbers.map((invoiceNumber, index) => ({
        index,
        key: `refund-${invoiceNumber}`,
        previouslySent: false,
        bodyJson: JSON.stringify({ invoiceNumber, amount: 5, reason: 'returned' }),
      }));
      const results = RecordResults.of(
        entries.map((_, index): RecordResult => ({ record: index + 1, status: 'pending' })),
      );
      const outcome = await sendRecords({
        kind: refundSending,
        client: createServiceClient({ baseUrl: server.url, token: 'journal-wait-token-0123', timeoutMs: 5_000 }),
        journal,
        entries: (async function* () {
          yield* entries;
        })(),
        results,
        concurrency: 3,
        retries: 0,
      });
      await journal.close();
      expect(outcome).toEqual({ interrupted: false });
      expect(results.count('created')).toBe(6);
      expect(arrivals.map((arrival) => arrival.invoiceNumber).sort()).toEqual(invoiceNumbers);
      expect(arrivals.filter((arrival) => !arrival.sentOnDisk)).toEqual([]);
    },
  );
});
