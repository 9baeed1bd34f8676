import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalEntries, record, writeNdjson } from '../bulk/helpers.js';
import { sendJson, serversClosedAfterEach, type TestHandler } from '../helpers/http-server.js';
import { smallDisk } from '../helpers/small-disk.js';
import { runInProcess } from '../helpers/in-process.js';
import { newToken } from '../helpers/secrets.js';
import { folderWithProfile } from '../helpers/profile.js';

// A full disk is told as it is. The journal lives on a real, small tmpfs (test/helpers/small-disk.ts), filled
// while the run goes on or before it starts.

const serve = serversClosedAfterEach();

interface JsonReport {
  summary: Record<string, number>;
  records: Array<{ record: number; status: string; error?: string }>;
}

/** A service that creates each invoice once, refuses a second with a reference as a duplicate, and calls `onRequest`. */
function serviceWith(onRequest: (index: number) => void): TestHandler {
  const byReference = new Map<string, string>();
  let next = 1000001;
  return (request, response, index) => {
    onRequest(index);
    const body = JSON.parse(request.body) as { businessReference?: string };
    const existing = body.businessReference === undefined ? undefined : byReference.get(body.businessReference);
    if (existing) {
      return sendJson(response, 409, { code: 'DUPLICATE_INVOICE', message: 'duplicate', invoiceNumber: existing });
    }
    const number = String(next++);
    if (body.businessReference !== undefined) byReference.set(body.businessReference, number);
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end(number);
  };
}

const notes = (requests: Array<{ body: string }>) =>
  requests.map((request) => (JSON.parse(request.body) as { note: string }).note);

describe('a disk that fills during a run', () => {
  it('a record whose sent entry could not be written is not sent; the rerun sends it, nothing twice', async () => {
    const disk = smallDisk(256);
    // The disk fills while the service handles the fifth request.
    const service = await serve(serviceWith((index) => index === 4 && disk.fill()));
    const cwd = folderWithProfile(service.url, newToken('full-disk'));
    // Every third record has a businessReference; the others rely on the journal alone.
    const all = Array.from({ length: 60 }, (_, index) =>
      record(index + 1, (index + 1) % 3 === 0 ? { businessReference: `REF-${index + 1}` } : {}),
    );
    writeNdjson(cwd, 'batch.ndjson', all);
    const journal = join(disk.dir, 'run.journal.ndjson');
    const args = ['create', 'single', '--file', 'batch.ndjson', '--journal', journal, '--yes', '--json'];

    const first = await runInProcess([...args, '--concurrency', '4'], { cwd });
    expect(first.code, first.stderr).toBe(6);
    expect(first.stderr).toContain(`Sending stopped: Cannot write the journal ${journal}: ENOSPC`);
    const report = JSON.parse(first.stdout) as JsonReport;
    const sentFirst = new Set(notes(service.requests));
    expect(report.summary).toMatchObject({ uncertain: 0, created: sentFirst.size, notSent: 60 - sentFirst.size });
    expect(report.summary.notSent).toBeGreaterThan(0);
    const statusFirst = new Map(report.records.map((each) => [each.record, each.status]));
    for (const [number, status] of statusFirst) {
      expect(status, `record ${number}`).toBe(sentFirst.has(`Order ${number}`) ? 'created' : 'not-sent');
    }
    // The journal holds a `sent` entry only of a record that was sent.
    const entries = journalEntries(journal);
    const recordOf = new Map(entries.filter((entry) => entry.type === 'planned').map((e) => [e.key, e.record]));
    for (const entry of entries.filter((each) => each.type === 'sent')) {
      expect(statusFirst.get(recordOf.get(entry.key) as number), `${String(entry.key)}`).toBe('created');
    }

    disk.free();
    const rerun = await runInProcess(args, { cwd });
    const again = JSON.parse(rerun.stdout) as JsonReport;
    for (const each of again.records) {
      // What the first run told as not sent, the rerun sends. Only a record the first run created, whose entry the
      // full disk took, may be held as uncertain (it exists; the journal cannot know it).
      if (statusFirst.get(each.record) === 'not-sent') expect(each.status, `record ${each.record}`).toBe('created');
      if (each.status === 'uncertain') expect(statusFirst.get(each.record)).toBe('created');
    }
    expect(again.summary).toMatchObject({ failed: 0, notSent: 0 });
    // No record without a reference reached the service twice; one with a reference sent again was refused as a
    // duplicate and counted as already existing.
    const seen = new Set<string>();
    for (const note of notes(service.requests)) {
      if (seen.has(note)) expect(Number(note.split(' ')[1]) % 3, `${note} sent twice`).toBe(0);
      seen.add(note);
    }
    // The summary's "already existed" row breaks down into parts that add up to it.
    const row = /already existed +(\d+)(?: +\((.*)\))?/.exec(rerun.stderr);
    const parts = (row?.[2] ?? '').split('; ').filter(Boolean);
    expect(parts.reduce((total, part) => total + Number(part.split(' ')[0]), 0)).toBe(Number(row?.[1]));
  });
});

describe('a disk already full when the run starts', () => {
  it('exit 9, naming the file that could not be written, and nothing sent', async () => {
    const disk = smallDisk(64);
    disk.fill();
    const service = await serve();
    const cwd = folderWithProfile(service.url, newToken('full-disk'));
    writeNdjson(
      cwd,
      'batch.ndjson',
      Array.from({ length: 5 }, (_, index) => record(index + 1)),
    );
    const journal = join(disk.dir, 'run.journal.ndjson');
    const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--journal', journal, '--yes'], {
      cwd,
    });
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toMatch(
      new RegExp(`Cannot write ${journal}(\\.lock)?: the disk is full \\(ENOSPC\\); nothing was sent\\.`),
    );
    expect(result.stderr).not.toContain('Unexpected error');
    expect(service.requests).toEqual([]);
  });

  it('with room for the lock but not the planned records: names the journal, and leaves none', async () => {
    const disk = smallDisk(64);
    const service = await serve();
    const cwd = folderWithProfile(service.url, newToken('full-disk'));
    // About 100 KiB of records to plan, on a disk of 64 KiB.
    writeNdjson(
      cwd,
      'batch.ndjson',
      Array.from({ length: 600 }, (_, index) => record(index + 1)),
    );
    const journal = join(disk.dir, 'run.journal.ndjson');
    const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--journal', journal, '--yes'], {
      cwd,
    });
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toContain(`Cannot write ${journal}: the disk is full (ENOSPC); nothing was sent.`);
    expect(service.requests).toEqual([]);
    // The plan it could not finish is taken back: no journal of a run that sent nothing.
    expect(existsSync(journal)).toBe(false);
  });
});
