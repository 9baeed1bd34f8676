import { describe, expect, it } from 'vitest';
import { readRecords } from '../../src/sheet/records.js';
import { UsageError } from '../../src/errors.js';
import { chunked, collect } from '../bulk/helpers.js';

describe('NDJSON records', () => {
  it('gives each non-blank line with its position and line number, however the chunks cut the text', async () => {
    const text = '\uFEFF{"n":1}\r\n\n{"note":"قميص"}\n   \n{"n":3}';
    for (const size of [1, 2, 3, 7, 1000]) {
      const found = await collect(readRecords(chunked(text, size), 'ndjson', 'f'));
      expect(found).toEqual([
        { position: 0, line: 1, text: '{"n":1}' },
        { position: 1, line: 3, text: '{"note":"قميص"}' },
        { position: 2, line: 5, text: '{"n":3}' },
      ]);
    }
  });

  it('passes a broken line on as text, for the plan to report with its line', async () => {
    const found = await collect(readRecords(chunked('{"n":1}\n{"n": \n', 4), 'ndjson', 'f'));
    expect(found[1]).toEqual({ position: 1, line: 2, text: '{"n":' });
  });

  it('streams: records come out before the input ends', async () => {
    async function* endless(): AsyncGenerator<Buffer> {
      for (let index = 0; ; index++) yield Buffer.from(`{"n":${index}}\n`);
    }
    const seen: number[] = [];
    for await (const batch of readRecords(endless(), 'ndjson', 'f')) {
      seen.push(...batch.map((item) => item.position));
      if (seen.length >= 5) break;
    }
    expect(seen.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('JSON array records', () => {
  const text = `[
  {"note": "a, [b] {c}", "quote": "say \\"hi\\" \\\\"},
  {"items": [{"price": 1}, {"price": 2}]},
  42,
  {"n": "قميص"}
]`;

  it('gives each element with the line it starts on, across any chunk boundary', async () => {
    for (const size of [1, 5, 64, 10_000]) {
      const found = await collect(readRecords(chunked(text, size), 'array', 'f'));
      expect(found.map(({ position, line }) => ({ position, line }))).toEqual([
        { position: 0, line: 2 },
        { position: 1, line: 3 },
        { position: 2, line: 4 },
        { position: 3, line: 5 },
      ]);
      expect(found.map((item) => JSON.parse(item.text) as unknown)).toEqual(JSON.parse(text));
    }
  });

  it.each([
    ['an unclosed list', '[{"n":1},', 'the list is not closed with ]'],
    ['text after the list', '[{"n":1}] {"n":2}', 'there is more after the closing ]'],
    ['a missing element', '[{"n":1},,{"n":2}]', 'an element is missing'],
    ['something other than a list', '{"n":1}', 'it does not start with ['],
  ])('refuses %s as a whole', async (_what, content, reason) => {
    const error = await collect(readRecords(chunked(content, 3), 'array', 'batch.json')).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(`--file batch.json is not a valid JSON list of invoices: ${reason}`);
  });
});
