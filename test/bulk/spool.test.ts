import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Spool, type SpoolEntry } from '../../src/bulk/spool.js';
import { tempDir } from './helpers.js';

describe('the spool', () => {
  it('gives back every entry as written, in order, each body as the same JSON text', async () => {
    const entries: SpoolEntry[] = Array.from({ length: 3000 }, (_, index) => ({
      index,
      key: `key-${index}`,
      journaled: index % 2 === 0,
      previouslySent: index % 3 === 0,
      ...(index % 5 === 0 ? {} : { businessReference: `R-${index}` }),
      bodyJson: JSON.stringify({ note: `tab\there, line\nbreak ${index}`, nameAr: 'قميص', amount: index + 0.5 }),
    }));
    const file = join(tempDir(), 'journal.ndjson.spool');
    const spool = await Spool.open(file);
    for (const entry of entries) await spool.write(entry);
    await spool.finish();
    // One line per entry: no tab or newline of a body's text breaks one.
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(entries.length + 1);

    const read: SpoolEntry[] = [];
    for await (const entry of spool.read()) read.push(entry);
    expect(read).toEqual(entries);
    await spool.dispose();
  });

  it('replaces a spool a killed run left, as a file of the user alone (0600), whatever its mode was', async () => {
    const file = join(tempDir(), 'journal.ndjson.spool');
    writeFileSync(file, 'left by a killed run\n');
    chmodSync(file, 0o644);
    const spool = await Spool.open(file);
    await spool.write({ index: 0, key: 'k', journaled: false, previouslySent: false, bodyJson: '{"note":"x"}' });
    await spool.finish();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain('left by a killed run');
    await spool.dispose();
  });
});
