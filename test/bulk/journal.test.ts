import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalWriter, journalVersion, type JournalEntry } from '../../src/bulk/journal.js';
import { lockJournal } from '../../src/bulk/journal-lock.js';
import { readJournal } from '../../src/bulk/journal-state.js';
import { UsageError } from '../../src/errors.js';
import { journalEntries, tempDir } from './helpers.js';

const run: JournalEntry = {
  type: 'run',
  version: journalVersion,
  at: '2026-03-10T08:30:01.000Z',
  resolveDatesAt: '2026-03-10T08:30:00.000Z',
  kind: 'single',
  input: 'batch.ndjson',
};

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
    // A created record is never sent again: its body is not kept in memory.
    expect(state?.records.get('a')).toMatchObject({
      invoiceNumber: '1000001',
      businessReference: 'R1',
      body: undefined,
    });
    expect(state?.records.get('b')).toMatchObject({ body: { note: 'b' }, error: 'dropped' });
  });

  it('keeps the first run’s instant for relative dates through later runs', async () => {
    const path = join(tempDir(), 'j.ndjson');
    await write(path, [run]);
    await write(path, [{ ...run, at: '2026-03-12T00:00:00.000Z', resolveDatesAt: '2026-03-12T00:00:00.000Z' }]);
    expect((await readJournal(path))?.resolveDatesAt?.toISOString()).toBe(run.resolveDatesAt);
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
