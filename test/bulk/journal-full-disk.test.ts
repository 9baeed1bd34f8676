import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { JournalWriter } from '../../src/bulk/journal.js';
import { smallDisk } from '../helpers/small-disk.js';
import { journalEntries } from './helpers.js';

// When a full disk takes part of a group of entries, the journal is cut back to what is whole and holds no `sent`
// entry whose wait was refused: that record was held back, not sent, and the next run must send it.

it('a group written in part by a full disk leaves no sent entry of a record held back', async () => {
  const disk = smallDisk(64);
  const path = join(disk.dir, 'journal.ndjson');
  const journal = await JournalWriter.open(path);
  // One entry on the disk, then no room but what is left of its page.
  journal.append({ type: 'created', key: 'k0', invoiceNumber: '1000001' });
  await journal.durable();
  disk.fill();

  // Record 1's `sent` fits the room left; record 2's body does not, so the system writes the group in part.
  journal.append({ type: 'created', key: 'k9', invoiceNumber: '1000009' });
  journal.append({ type: 'sent', key: 'k1', at: '2030-01-01T00:00:00.000Z' });
  journal.appendPlanned({ key: 'k2', record: 2 }, JSON.stringify({ note: 'x'.repeat(8192) }));
  journal.append({ type: 'sent', key: 'k2', at: '2030-01-01T00:00:00.000Z' });
  await expect(journal.durable()).rejects.toThrow(/^Cannot write the journal .*: ENOSPC/);
  await journal.close().catch(() => undefined);

  // What happened before the first `sent` of the group stays; nothing of record 1 or 2 does.
  expect(journalEntries(path)).toEqual([
    { type: 'created', key: 'k0', invoiceNumber: '1000001' },
    { type: 'created', key: 'k9', invoiceNumber: '1000009' },
  ]);
  expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
});
