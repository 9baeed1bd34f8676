import { describe, expect, it } from 'vitest';
import { heapFlagsFor, longRunFileBytes, longRunHeapFlags } from '../src/heap-size.js';

// A long run is held to a bounded heap (a million records within 512 MiB, `npm run bench -- --scale`); a short one
// keeps V8's own sizing, which costs less CPU per record (`npm run bench -- --bulk`).

const sizes: Record<string, number> = {
  'small.csv': 3 * 1024 ** 2,
  'large.csv': longRunFileBytes,
  'x.ndjson': 10,
  'small.xlsx': longRunFileBytes / 8 - 1,
  'large.XLSX': longRunFileBytes / 8,
};
const sizeOf = (path: string) => sizes[path];
const flags = (...args: string[]) => heapFlagsFor(['node', 'einvoice', ...args], sizeOf);

describe('the heap a run is given', () => {
  it('is bounded for a file from 8 MiB up (a workbook from 1 MiB), however --file is written', () => {
    for (const args of [
      ['create', 'single', '--file', 'large.csv'],
      ['create', 'single', '--file=large.csv'],
      ['refund', '-f', 'large.csv'],
      ['refund', '-yf', 'large.csv'],
      ['refund', '-flarge.csv', '--yes'],
      // A workbook packs its rows some 8 times: an eighth of the size holds as many.
      ['create', 'single', '--file', 'large.XLSX'],
    ]) {
      expect(flags(...args), args.join(' ')).toBe(longRunHeapFlags);
    }
  });

  it('is bounded for stdin and for a file whose size cannot be read, which may be as long as any', () => {
    expect(flags('create', 'single', '--file', '-')).toBe(longRunHeapFlags);
    expect(flags('create', 'single', '--file', 'missing.csv')).toBe(longRunHeapFlags);
    expect(flags('create', 'single', '--file')).toBe(longRunHeapFlags);
  });

  it("is V8's own for a small file, and for a command given no file", () => {
    expect(flags('create', 'single', '--file', 'small.csv')).toBeUndefined();
    expect(flags('create', 'single', '--file', 'small.xlsx')).toBeUndefined();
    expect(flags('refund', '-yf', 'x.ndjson')).toBeUndefined();
    expect(flags('stats')).toBeUndefined();
    // An -f after --, or the value of --env, is no file.
    expect(flags('create', 'single', '--', '--file', 'large.csv')).toBeUndefined();
    expect(flags('stats', '-e', 'f')).toBeUndefined();
  });
});
