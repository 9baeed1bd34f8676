import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { readInvoiceFile } from '../../src/sheet/input-format.js';
import type { CommandContext } from '../../src/context.js';
import { decodeWhole, InputDecoder, likelyCodePage, sniffEncoding } from '../../src/input/text-encoding.js';

// How bytes become text: the encoding named, a byte order mark, UTF-16 by its zero bytes, else UTF-8; a character
// split between two chunks is one character, and only bytes that are not text are called so.

/** `bytes` in pieces of `size`, as a stream hands them over. */
function inPieces(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) pieces.push(bytes.subarray(start, start + size));
  return pieces;
}

/** Decodes `pieces` one at a time, as a run over a file does. */
function decodeInPieces(pieces: Buffer[], declared?: Parameters<typeof sniffEncoding>[1]) {
  const decoder = new InputDecoder(declared);
  const text = pieces.map((piece) => decoder.decode(piece)).join('') + decoder.end();
  return { text, undecodable: decoder.undecodable, encoding: decoder.encoding };
}

const arabic = 'customer.name,note\r\nسارة أحمد,طلب رقم ١\r\n';

describe('sniffEncoding', () => {
  it.each([
    ['a UTF-8 mark', Buffer.from([0xef, 0xbb, 0xbf, 0x61]), { encoding: 'utf-8', bom: 3 }],
    ['a UTF-16LE mark', Buffer.from([0xff, 0xfe, 0x61, 0]), { encoding: 'utf-16le', bom: 2 }],
    ['a UTF-16BE mark', Buffer.from([0xfe, 0xff, 0, 0x61]), { encoding: 'utf-16be', bom: 2 }],
    ['UTF-16LE without a mark', Buffer.from('name,note\r\n', 'utf16le'), { encoding: 'utf-16le', bom: 0 }],
    ['UTF-16BE without a mark', Buffer.from('name,note\r\n', 'utf16le').swap16(), { encoding: 'utf-16be', bom: 0 }],
    ['plain UTF-8', Buffer.from(arabic), { encoding: 'utf-8', bom: 0 }],
  ])('reads %s', (_what, head, expected) => {
    expect(sniffEncoding(head)).toEqual(expected);
  });

  it('takes the encoding named over the bytes, skipping its own mark only', () => {
    expect(sniffEncoding(Buffer.from([0xff, 0xfe, 0x61, 0]), 'windows-1256')).toEqual({
      encoding: 'windows-1256',
      bom: 0,
    });
    expect(sniffEncoding(Buffer.from([0xef, 0xbb, 0xbf]), 'utf-8')).toEqual({ encoding: 'utf-8', bom: 3 });
  });
});

describe('InputDecoder', () => {
  it.each([1, 2, 3, 7, 64, 4096])(
    'decodes UTF-8 Arabic split into pieces of %i bytes, with nothing undecodable',
    (size) => {
      const decoded = decodeInPieces(inPieces(Buffer.from(arabic), size));
      expect(decoded.text).toBe(arabic);
      expect(decoded.undecodable).toBeUndefined();
    },
  );

  it.each([1, 3, 64])('decodes UTF-16LE with its mark in pieces of %i bytes, without the mark', (size) => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(arabic, 'utf16le')]);
    const decoded = decodeInPieces(inPieces(bytes, size));
    expect(decoded).toMatchObject({ text: arabic, encoding: 'utf-16le', undecodable: undefined });
  });

  it('names the line and byte of the first bytes that are not UTF-8, and Windows-1256 when they read as Arabic', () => {
    const latin1256 = Buffer.from([0xe3, 0xcd, 0xe3, 0xcf, 0x20, 0xda, 0xe1, 0xed]); // محمد علي in Windows-1256
    const bytes = Buffer.concat([Buffer.from('name\nAmr\n'), latin1256, Buffer.from('\n')]);
    const { undecodable, text } = decodeWhole(bytes);
    expect(undecodable).toEqual({ encoding: 'utf-8', offset: 9, line: 3, likely: 'windows-1256' });
    expect(text).toContain('\uFFFD');
  });

  it.each([1, 2, 3, 7, 64, 4096])(
    'refuses UTF-8 read as Windows-1256 or ISO-8859-6 in pieces of %i bytes, where it starts and as UTF-8',
    (size) => {
      // Past the first bytes the encoding is decided on, so small pieces cut the first Arabic letter in two.
      const bytes = Buffer.from(`name,note\n${'A'.repeat(100)},سارة أحمد\n`);
      for (const encoding of ['windows-1256', 'iso-8859-6'] as const) {
        const decoder = new InputDecoder(encoding);
        for (const piece of inPieces(bytes, size)) decoder.decode(piece);
        decoder.end();
        expect(decoder.undecodable, `${encoding}, pieces of ${size}`).toEqual({
          encoding,
          offset: 111,
          line: 2,
          likely: 'utf-8',
        });
      }
    },
  );

  it('reads Windows-1256 Arabic named as such without taking it for UTF-8', () => {
    const bytes = Buffer.from([0x6e, 0x0a, 0xe3, 0xcd, 0xe3, 0xcf, 0x20, 0xda, 0xe1, 0xed, 0x0a]); // n, محمد علي
    expect(decodeWhole(bytes, 'windows-1256')).toEqual({ text: 'n\nمحمد علي\n', undecodable: undefined });
  });

  it('does not count a U+FFFD the text itself holds as undecodable bytes', () => {
    expect(decodeWhole(Buffer.from('name\nMona \uFFFD\n')).undecodable).toBeUndefined();
  });

  it('tells Windows-1256 Arabic from another single-byte code page', () => {
    expect(likelyCodePage(Buffer.from([0xe3, 0xcd, 0xe3, 0xcf]))).toBe('windows-1256');
    // Windows-1252 for "Café Müller": é and ü are not Arabic letters in Windows-1256 either.
    expect(likelyCodePage(Buffer.from('Caf\xe9 M\xfcller', 'latin1'))).toBe('single-byte');
  });
});

describe('readInvoiceFile hands the readers UTF-8', () => {
  /** A context whose stdin gives `bytes` in pieces of `size`. */
  const contextWith = (bytes: Buffer, size: number): CommandContext => ({
    stdin: Readable.from(inPieces(bytes, size)),
    stdout: process.stdout,
    stderr: process.stderr,
    env: {},
    cwd: process.cwd(),
  });

  it.each([1, 5, 100])('re-encodes a UTF-16 sheet from stdin, in pieces of %i bytes', async (size) => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(arabic, 'utf16le')]);
    const input = await readInvoiceFile('-', contextWith(bytes, size), 'csv');
    if (input.kind !== 'many') throw new Error('expected many');
    expect((await buffer(Readable.from(input.open()))).toString('utf8')).toBe(arabic);
    expect(input.undecodable()).toBeUndefined();
  });

  it.each([1, 5, 100])('passes UTF-8 bytes through as they are, in pieces of %i bytes', async (size) => {
    const bytes = Buffer.from(`\uFEFF${arabic}`);
    const input = await readInvoiceFile('-', contextWith(bytes, size), 'csv');
    if (input.kind !== 'many') throw new Error('expected many');
    expect(await buffer(Readable.from(input.open()))).toEqual(bytes);
  });

  it('reads Windows-1256 when named, and remembers undecodable bytes when not', async () => {
    const bytes = Buffer.from([...Buffer.from('customer.name\r\n'), 0xe3, 0xcd, 0xe3, 0xcf, 0x0d, 0x0a]);
    const named = await readInvoiceFile('-', contextWith(bytes, 4), 'csv', 'windows-1256');
    if (named.kind !== 'many') throw new Error('expected many');
    expect((await buffer(Readable.from(named.open()))).toString('utf8')).toBe('customer.name\r\nمحمد\r\n');

    const unnamed = await readInvoiceFile('-', contextWith(bytes, 4), 'csv');
    if (unnamed.kind !== 'many') throw new Error('expected many');
    await buffer(Readable.from(unnamed.open()));
    expect(unnamed.undecodable()).toMatchObject({ line: 2, likely: 'windows-1256' });
  });
});
