import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalWriter, journalVersion, type JournalEntry } from '../../src/bulk/journal.js';
import { lockJournal } from '../../src/bulk/journal-lock.js';
import { plannedEntries, readJournal } from '../../src/bulk/journal-state.js';
import { UsageError } from '../../src/errors.js';
import { journalEntries, tempDir, withFileCalls } from './helpers.js';

const run: JournalEntry = {
  type: 'run',
  version: journalVersion,
  at: '2026-03-10T08:30:01.000Z',
  resolveDatesAt: '2026-03-10T08:30:00.000Z',
  kind: 'single',
  input: 'batch.ndjson',
  environment: 'staging',
  service: 'https://staging.example/',
};

/** A promise and what resolves it. */
function signal(): { promise: Promise<void>; resolve(): void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

async function write(path: string, entries: JournalEntry[]): Promise<void> {
  const journal = await JournalWriter.open(path);
  for (const entry of entries) journal.append(entry);
  await journal.close();
}

describe('the journal', () => {
  it('reads back where each record stands: the last entry of a record decides', async () => {
    const path = join(tempDir(), 'j.ndjson');
    await write(path, [
      run,
      { type: 'planned', key: 'a', record: 1, businessReference: 'R1', body: { note: 'a' } },
      { type: 'sent', key: 'a', at: 'now' },
      { type: 'created', key: 'a', invoiceNumber: '1000001' },
      { type: 'planned', key: 'b', record: 2, body: { note: 'b' } },
      { type: 'sent', key: 'b', at: 'now' },
      { type: 'uncertain', key: 'b', error: 'dropped' },
      { type: 'planned', key: 'c', record: 3, body: { note: 'c' } },
      { type: 'sent', key: 'c', at: 'now' },
      { type: 'failed', key: 'c', error: 'HTTP 400', status: 400 },
      { type: 'sent', key: 'c', at: 'later' },
      { type: 'planned', key: 'd', record: 4, body: { note: 'd' } },
    ]);
    const state = await readJournal(path);
    expect(state?.resolveDatesAt?.toISOString()).toBe(run.resolveDatesAt);
    expect(state?.kind).toBe('single');
    expect(Object.fromEntries([...(state?.records ?? [])].map(([key, entry]) => [key, entry.state]))).toEqual({
      a: 'created',
      b: 'uncertain',
      c: 'sent',
      d: 'planned',
    });
    // Only a record whose outcome is unknown is sent again with its very body: no other body is kept in memory.
    expect(state?.records.get('a')).toMatchObject({ invoiceNumber: '1000001', businessReference: 'R1' });
    expect(state?.records.get('a')?.body).toBeUndefined();
    expect(state?.records.get('b')).toMatchObject({ body: { note: 'b' }, error: 'dropped' });
    expect(state?.records.get('c')).toMatchObject({ body: { note: 'c' } });
    expect(state?.records.get('d')?.body).toBeUndefined();
  });

  it('keeps the first run’s instant for relative dates through later runs', async () => {
    const path = join(tempDir(), 'j.ndjson');
    await write(path, [run, { type: 'sent', key: 'a', at: 'now' }]);
    await write(path, [{ ...run, at: '2026-03-12T00:00:00.000Z', resolveDatesAt: '2026-03-12T00:00:00.000Z' }]);
    expect((await readJournal(path))?.resolveDatesAt?.toISOString()).toBe(run.resolveDatesAt);
  });

  it('lets a run that sent nothing fix nothing: the first run that sends decides the dates and the target', async () => {
    const path = join(tempDir(), 'j.ndjson');
    // Killed at its question (the window closed): its run entry and plan stay, nothing was sent.
    await write(path, [run, { type: 'planned', key: 'a', record: 1, body: { note: 'a' } }]);
    const unsent = await readJournal(path);
    expect(unsent?.resolveDatesAt).toBeUndefined();
    expect(unsent?.target).toBeUndefined();
    const next = { ...run, resolveDatesAt: '2026-03-12T00:00:00.000Z', service: 'https://other.example/' };
    await write(path, [next, { type: 'sent', key: 'a', at: 'now' }]);
    const sent = await readJournal(path);
    expect(sent?.resolveDatesAt?.toISOString()).toBe(next.resolveDatesAt);
    expect(sent?.target).toEqual({ environment: 'staging', service: 'https://other.example/' });
  });

  it('recovers from a torn last line: ignored when read, cut off before the next entry is appended', async () => {
    const path = join(tempDir(), 'j.ndjson');
    await write(path, [run, { type: 'planned', key: 'a', record: 1, body: {} }, { type: 'sent', key: 'a', at: 'x' }]);
    appendFileSync(path, '{"type":"created","key":"a","invoiceNu');

    const torn = await readJournal(path);
    expect(torn?.records.get('a')?.state).toBe('sent');
    expect(torn?.damagedLines).toBe(0);

    await write(path, [{ type: 'created', key: 'a', invoiceNumber: '1000001' }]);
    expect(readFileSync(path, 'utf8').endsWith('{"type":"created","key":"a","invoiceNumber":"1000001"}\n')).toBe(true);
    expect(journalEntries(path)).toHaveLength(4);
    expect((await readJournal(path))?.records.get('a')?.state).toBe('created');
  });

  it('counts damaged lines in the middle, and is absent when there is no file', async () => {
    const path = join(tempDir(), 'j.ndjson');
    writeFileSync(path, `${JSON.stringify(run)}\nnot json\n${JSON.stringify({ type: 'sent', key: 'a', at: 'x' })}\n`);
    expect((await readJournal(path))?.damagedLines).toBe(1);
    expect(await readJournal(join(tempDir(), 'none.ndjson'))).toBeUndefined();
  });

  it('refuses a journal of another format version', async () => {
    const path = join(tempDir(), 'j.ndjson');
    writeFileSync(path, `${JSON.stringify({ ...run, version: journalVersion + 1 })}\n`);
    await expect(readJournal(path)).rejects.toBeInstanceOf(UsageError);
  });

  it('groups appends: every entry appended before durable() resolves is on disk when it does', async () => {
    const path = join(tempDir(), 'j.ndjson');
    const journal = await JournalWriter.open(path);
    for (let index = 0; index < 200; index++) journal.append({ type: 'sent', key: `k${index}`, at: 'x' });
    await journal.durable();
    expect(journalEntries(path)).toHaveLength(200);
    journal.append({ type: 'sent', key: 'last', at: 'x' });
    await journal.close();
    expect(journalEntries(path).at(-1)).toMatchObject({ key: 'last' });
  });

  it('writes entries at once, and syncs them when someone waits or the interval is up', async () => {
    const path = join(tempDir(), 'j.ndjson');
    const events: string[] = [];
    let expected = 100;
    const written = signal();
    // The platform's write and sync, as the journal calls them, wrapped: they say when they ran.
    await withFileCalls(
      {
        writeSync: (write) => (fd, buffer, offset) => {
          const count = write(fd, buffer, offset);
          // The groups written so far hold every entry appended so far.
          if (journalEntries(path).length === expected) written.resolve();
          return count;
        },
        fdatasyncSync: (sync) => (fd) => {
          sync(fd);
          events.push(`synced with ${journalEntries(path).length} entries on file`);
        },
      },
      async () => {
        // An interval no test outlasts: the syncs below are those asked for.
        const journal = await JournalWriter.open(path, { syncEveryMs: 600_000 });
        for (let index = 0; index < 100; index++) journal.append({ type: 'sent', key: `k${index}`, at: 'x' });
        // Nobody waits: written at once (a killed process loses nothing), not yet synced.
        await written.promise;
        expect(journalEntries(path)).toHaveLength(100);
        expect(events).toEqual([]);

        // Someone waits: synced at once, and durable() resolves only once that sync is done.
        expected = 101;
        journal.append({ type: 'sent', key: 'waited', at: 'x' });
        await journal.durable().then(() => events.push('durable'));
        expect(events).toEqual(['synced with 101 entries on file', 'durable']);
        await journal.close();
      },
    );
  });

  it('syncs what nobody waits for once the interval is up', async () => {
    const path = join(tempDir(), 'j.ndjson');
    const synced = signal();
    await withFileCalls(
      {
        fdatasyncSync: (sync) => (fd) => {
          sync(fd);
          synced.resolve();
        },
      },
      async () => {
        const journal = await JournalWriter.open(path, { syncEveryMs: 20 });
        journal.append({ type: 'sent', key: 'a', at: 'x' });
        await synced.promise;
        expect(journalEntries(path)).toHaveLength(1);
        await journal.close();
      },
    );
  });

  it('fails whoever waits, and every later append, once a sync fails', async () => {
    const path = join(tempDir(), 'j.ndjson');
    const noSpace = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    await withFileCalls(
      {
        fdatasyncSync: () => () => {
          throw noSpace;
        },
      },
      async () => {
        const journal = await JournalWriter.open(path);
        journal.append({ type: 'sent', key: 'a', at: 'x' });
        await expect(journal.durable()).rejects.toThrow(`Cannot write the journal ${path}: no space left on device`);
        expect(() => journal.append({ type: 'sent', key: 'b', at: 'x' })).toThrow('no space left on device');
        await expect(journal.close()).rejects.toThrow('no space left on device');
        // What was written since the last sync may not be on the disk: the file keeps only what is.
        expect(readFileSync(path, 'utf8')).toBe('');
      },
    );
  });

  it('writes a planned entry given its body as JSON text as it writes one given the body', async () => {
    const body = { note: 'a "quoted" note', nameAr: 'قميص', items: [{ price: 12.5 }] };
    const planned = { key: 'k', record: 3, line: 4, businessReference: 'R3' };
    const path = join(tempDir(), 'j.ndjson');
    const journal = await JournalWriter.open(path);
    journal.appendPlanned(planned, JSON.stringify(body));
    journal.append({ type: 'planned', ...planned, body });
    journal.appendPlanned({ key: 'n', record: 5 }, JSON.stringify(body));
    await journal.close();
    const [fromText, fromObject, withoutReference] = readFileSync(path, 'utf8').split('\n');
    expect(fromText).toBe(fromObject);
    expect(JSON.parse(withoutReference ?? '')).toEqual({ type: 'planned', key: 'n', record: 5, body });
  });

  it("gives back a run's planned entries in order, each body as the JSON text it was written with", async () => {
    const path = join(tempDir(), 'j.ndjson');
    await write(path, [run, { type: 'planned', key: 'old', record: 1, body: { note: 'earlier run' } }]);
    const journal = await JournalWriter.open(path);
    journal.append(run);
    journal.appendPlanned({ key: 'a', record: 1, businessReference: 'R "1"' }, '{"note":"a","body":{"note":"inner"}}');
    journal.appendPlanned({ key: 'b', record: 2 }, '{"note":"b"}');
    await journal.close();
    const planned = [];
    for await (const entry of plannedEntries(path, journal.startsAt)) planned.push(entry);
    expect(planned).toEqual([
      { key: 'a', businessReference: 'R "1"', bodyJson: '{"note":"a","body":{"note":"inner"}}' },
      { key: 'b', businessReference: undefined, bodyJson: '{"note":"b"}' },
    ]);
  });

  it('takes back what a run appended when it sends nothing: the file as it was, or none', async () => {
    const path = join(tempDir(), 'j.ndjson');
    await write(path, [run, { type: 'created', key: 'a', invoiceNumber: '1000001' }]);
    const before = readFileSync(path, 'utf8');
    const again = await JournalWriter.open(path);
    again.append(run);
    again.appendPlanned({ key: 'b', record: 2 }, '{"note":"b"}');
    await again.written();
    expect(readFileSync(path, 'utf8')).not.toBe(before);
    // One more entry still queued when the run gives up: dropped with the rest.
    again.append({ type: 'sent', key: 'b', at: 'x' });
    await again.discard();
    expect(readFileSync(path, 'utf8')).toBe(before);

    const fresh = join(tempDir(), 'new.ndjson');
    const first = await JournalWriter.open(fresh);
    first.appendPlanned({ key: 'a', record: 1 }, '{"note":"a"}');
    await first.written();
    await first.discard();
    expect(existsSync(fresh)).toBe(false);
  });

  it('is locked to one run at a time; a lock left by a dead process is taken over', async () => {
    const path = join(tempDir(), 'j.ndjson');
    const release = await lockJournal(path);
    writeFileSync(`${path}.lock`, '1\n'); // process 1 (init) is alive and is not us
    await expect(lockJournal(path)).rejects.toThrow('Another einvoice run (process 1) is using the journal');
    writeFileSync(`${path}.lock`, '999999999\n');
    const again = await lockJournal(path);
    expect(readFileSync(`${path}.lock`, 'utf8').trim()).toBe(String(process.pid));
    await again();
    await release();
  });
});
