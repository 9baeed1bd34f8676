import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { detectFormat, readInvoiceFile } from '../../src/sheet/input-format.js';
import type { CommandContext } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import { record, tempDir } from '../bulk/helpers.js';

function contextWith(dir: string, stdin = ''): CommandContext {
  return {
    stdin: Readable.from([Buffer.from(stdin)]),
    stdout: process.stdout,
    stderr: process.stderr,
    env: {},
    cwd: dir,
  };
}

const one = JSON.stringify(record(1));
const two = JSON.stringify(record(2));

describe('detectFormat', () => {
  it.each([
    ['a JSON array', `[${one},${two}]`, 'array'],
    ['a pretty-printed JSON array', JSON.stringify([record(1)], null, 2), 'array'],
    ['NDJSON', `${one}\n${two}\n`, 'ndjson'],
    ['NDJSON with CRLF and a BOM', `\uFEFF${one}\r\n${two}\r\n`, 'ndjson'],
    ['NDJSON whose first record is broken', `{"note": \n${two}\n`, 'ndjson'],
    ['one object on one line', `${one}\n`, undefined],
    ['one pretty-printed object', JSON.stringify(record(1), null, 2), undefined],
    ['an empty array (not a batch)', '[ ]', undefined],
    ['text that is not JSON', 'hello', undefined],
  ])('reads %s as %s', (_what, content, format) => {
    expect(detectFormat(content)).toBe(format);
  });
});

describe('readInvoiceFile', () => {
  it('takes .ndjson and .jsonl files as NDJSON by their extension, even with one record', async () => {
    const dir = tempDir();
    for (const name of ['one.ndjson', 'one.JSONL']) {
      writeFileSync(join(dir, name), `${one}\n`);
      const input = await readInvoiceFile(name, contextWith(dir));
      expect(input).toMatchObject({ kind: 'many', format: 'ndjson', name, absolutePath: join(dir, name) });
    }
  });

  it('detects an array and NDJSON in a file of any other name, and reads it from the start', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'list.json'), `[${one},${two}]`);
    writeFileSync(join(dir, 'lines.txt'), `${one}\n${two}\n`);
    const list = await readInvoiceFile('list.json', contextWith(dir));
    const lines = await readInvoiceFile('lines.txt', contextWith(dir));
    expect(list).toMatchObject({ kind: 'many', format: 'array' });
    expect(lines).toMatchObject({ kind: 'many', format: 'ndjson' });
    if (lines.kind !== 'many') throw new Error('expected many');
    expect(await text(Readable.from(lines.open()))).toBe(`${one}\n${two}\n`);
  });

  it('keeps one object for the one-invoice flow, parsed', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'invoice.json'), JSON.stringify(record(1), null, 2));
    expect(await readInvoiceFile('invoice.json', contextWith(dir))).toEqual({ kind: 'one', value: record(1) });
  });

  it.each(['missing.json', 'missing.ndjson'])('reports a missing %s as the one-invoice flow does', async (name) => {
    const error = await readInvoiceFile(name, contextWith(tempDir())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(`Cannot read --file ${name}: no such file.`);
  });

  it('replays the bytes read to detect NDJSON on stdin, then the rest', async () => {
    const lines = Array.from({ length: 3000 }, (_, index) => JSON.stringify(record(index))).join('\n');
    const input = await readInvoiceFile('-', contextWith(tempDir(), lines));
    expect(input).toMatchObject({ kind: 'many', format: 'ndjson', name: 'stdin', absolutePath: undefined });
    if (input.kind !== 'many') throw new Error('expected many');
    expect(await text(Readable.from(input.open()))).toBe(lines);
    expect(() => input.open()).toThrow('can be read only once');
  });

  it('parses one object from stdin, or says it is not JSON', async () => {
    expect(await readInvoiceFile('-', contextWith(tempDir(), one))).toEqual({ kind: 'one', value: record(1) });
    await expect(readInvoiceFile('-', contextWith(tempDir(), '{"note": '))).rejects.toThrow(
      '--file stdin is not valid JSON',
    );
  });
});
