import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalEntries } from '../bulk/helpers.js';
import { sendJson, serversClosedAfterEach, unusedPort, type TestHandler } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';
import { folderWithProfile } from '../helpers/profile.js';
import { newToken } from '../helpers/secrets.js';
import { smallDisk } from '../helpers/small-disk.js';

// Refunds from a file against a service that falls silent, one that is not there, and a disk that fills: they stop
// as creates do, with the same exit codes, and a refund whose request may have left is never sent again (it has no
// idempotency key), while one that never left is sent by the rerun.

const serve = serversClosedAfterEach();

interface JsonReport {
  summary: Record<string, number>;
  records: Array<{ invoiceNumber: string; status: string; error?: string }>;
}

/** Writes `count` refunds of invoices 2000001 on to `refunds.csv` in `cwd`; returns their invoice numbers. */
function writeRefunds(cwd: string, count: number): string[] {
  const numbers = Array.from({ length: count }, (_, index) => String(2000001 + index));
  const rows = numbers.map((number) => `${number},25,Returned,ORD-${number}`);
  writeFileSync(join(cwd, 'refunds.csv'), ['invoiceNumber,amount,reason,orderReferenceNumber', ...rows, ''].join('\n'));
  return numbers;
}

/** The invoice number a refund request is about, from its path. */
const invoiceOf = (path: string) => /\/invoices\/(\d+)\/refund$/.exec(path)?.[1] ?? path;

/** A service that refunds every invoice it is asked to, and counts the requests for each. */
function refunding(counts: Map<string, number>, onRequest: (index: number) => void = () => undefined): TestHandler {
  return (request, response, index) => {
    onRequest(index);
    const number = invoiceOf(request.path);
    counts.set(number, (counts.get(number) ?? 0) + 1);
    sendJson(response, 200, {});
  };
}

/** A service on `port` of 127.0.0.1 answering each request with `handler`. */
async function listenOn(port: number, handler: TestHandler): Promise<Server> {
  let index = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      void handler(
        { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body },
        response,
        index++,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

describe('refunds from a file when the service falls silent', () => {
  it('stops with exit 5; the refunds sent are uncertain and never sent again, the others are sent by the rerun', async () => {
    // The requests are read whole and never answered, until the service is back.
    const counts = new Map<string, number>();
    let back = false;
    const answer = refunding(counts);
    const silent = await serve((request, response, index) => (back ? answer(request, response, index) : undefined));
    const cwd = folderWithProfile(silent.url, newToken('silent'));
    const numbers = writeRefunds(cwd, 30);
    const args = ['refund', '--file', 'refunds.csv', '--yes', '--json', '--concurrency', '4'];

    const first = await runInProcess([...args, '--timeout', '1'], { cwd });
    expect(first.code, first.stderr).toBe(5);
    expect(first.stderr).toContain('Stopped after 10 failed attempts in a row that every record would meet');
    // The 4 in flight when it fell silent, then one probe at a time up to the stop rule's 10.
    const sent = new Set(silent.requests.map((request) => invoiceOf(request.path)));
    expect(sent.size).toBe(silent.requests.length);
    expect(silent.requests.length).toBeGreaterThanOrEqual(4);
    expect(silent.requests.length).toBeLessThanOrEqual(10);
    const report = JSON.parse(first.stdout) as JsonReport;
    for (const each of report.records) {
      expect(each.status, each.invoiceNumber).toBe(sent.has(each.invoiceNumber) ? 'uncertain' : 'not-sent');
    }

    // The service answers again: the rerun sends the refunds that never left, and none of those that may have.
    back = true;
    const rerun = await runInProcess(args, { cwd });
    expect(rerun.code, rerun.stderr).toBe(6);
    expect([...counts.keys()].sort()).toEqual(numbers.filter((number) => !sent.has(number)));
    expect([...counts.values()].every((times) => times === 1)).toBe(true);
    const rerunReport = JSON.parse(rerun.stdout) as JsonReport;
    expect(rerunReport.records.filter((each) => each.status === 'uncertain').map((each) => each.invoiceNumber)).toEqual(
      numbers.filter((number) => sent.has(number)),
    );
    expect(rerun.stderr).toContain('--mark-refunded INVOICE');
  }, 60_000);
});

describe('refunds from a file when nothing answers at the address', () => {
  it('stops with exit 5 and nothing sent; the rerun sends every refund once', async () => {
    const port = await unusedPort();
    const cwd = folderWithProfile(`http://127.0.0.1:${port}`, newToken('dead'));
    const numbers = writeRefunds(cwd, 30);
    const args = ['refund', '--file', 'refunds.csv', '--yes', '--json', '--concurrency', '4'];

    const first = await runInProcess(args, { cwd });
    expect(first.code, first.stderr).toBe(5);
    const report = JSON.parse(first.stdout) as JsonReport;
    // A connection that never opened sent nothing: no refund is uncertain.
    expect(report.summary).toMatchObject({ uncertain: 0, refunded: 0 });
    expect(report.records.every((each) => each.status === 'failed' || each.status === 'not-sent')).toBe(true);

    // The service comes up at that address.
    const counts = new Map<string, number>();
    const live = await listenOn(port, refunding(counts));
    try {
      const rerun = await runInProcess(args, { cwd });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect([...counts.keys()].sort()).toEqual(numbers);
      expect([...counts.values()].every((times) => times === 1)).toBe(true);
    } finally {
      await new Promise((resolve) => live.close(resolve));
    }
  });
});

describe('refunds from a file when the disk fills', () => {
  it('stops with exit 6 naming the journal; a refund whose mark could not be written is not sent; none twice', async () => {
    const disk = smallDisk(256);
    const counts = new Map<string, number>();
    // The disk fills while the service handles the fifth refund.
    const service = await serve(refunding(counts, (index) => index === 4 && disk.fill()));
    const cwd = folderWithProfile(service.url, newToken('full-disk'));
    const numbers = writeRefunds(cwd, 40);
    const journal = join(disk.dir, 'refunds.journal.ndjson');
    const args = ['refund', '--file', 'refunds.csv', '--journal', journal, '--yes', '--json', '--concurrency', '4'];

    const first = await runInProcess(args, { cwd });
    expect(first.code, first.stderr).toBe(6);
    expect(first.stderr).toContain(`Sending stopped: Cannot write the journal ${journal}: ENOSPC`);
    const sentFirst = new Set(counts.keys());
    expect(sentFirst.size).toBeLessThan(numbers.length);
    // Every refund the service received has its `sent` mark in the journal: none left without one.
    const keysSent = new Set(
      journalEntries(journal)
        .filter((entry) => entry.type === 'sent')
        .map((entry) => entry.key),
    );
    expect(keysSent.size).toBeGreaterThanOrEqual(sentFirst.size);

    disk.free();
    const rerun = await runInProcess(args, { cwd });
    expect([0, 6], rerun.stderr).toContain(rerun.code);
    // Each invoice got at most one refund request over both runs, and every one the first run never sent is sent.
    expect([...counts.values()].every((times) => times === 1)).toBe(true);
    for (const number of numbers) expect(counts.has(number), number).toBe(true);
    const report = JSON.parse(rerun.stdout) as JsonReport;
    for (const each of report.records.filter((record) => record.status === 'uncertain')) {
      expect(sentFirst.has(each.invoiceNumber), each.invoiceNumber).toBe(true);
    }
  });
});
