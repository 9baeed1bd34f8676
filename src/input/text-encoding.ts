// How the bytes of an input become text: in the encoding the merchant names (--encoding), else the one its byte
// order mark says, else UTF-16 when its bytes read as such, else UTF-8. Bytes that are not text in that encoding
// become U+FFFD, which the schemas refuse in every field (never sent to a customer); the first such bytes are kept
// so the refusal can say how the file was most likely saved. Arabic read as ISO-8859-6 must show it is not Windows-1256
// (arabic-code-pages.ts). Zod-free and commander-free: `--help` loads the names.

import { ArabicWordReader } from './arabic-code-pages.js';

/** The encodings `--encoding` reads, as Node's TextDecoder names them. */
export const encodingNames = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1256', 'iso-8859-6'] as const;
export type EncodingName = (typeof encodingNames)[number];

const byteOrderMarks: ReadonlyArray<{ encoding: EncodingName; bytes: readonly number[] }> = [
  { encoding: 'utf-8', bytes: [0xef, 0xbb, 0xbf] },
  { encoding: 'utf-16le', bytes: [0xff, 0xfe] },
  { encoding: 'utf-16be', bytes: [0xfe, 0xff] },
];

/** How many bytes `sniffEncoding` wants to decide (fewer at the end of the input). */
export const sniffBytes = 64;

/**
 * The encoding of an input from its first bytes, and the length of its byte order mark: `declared` wins (its own
 * mark is skipped); then a mark; then UTF-16 without a mark, when every other byte of the start is zero for most
 * characters (those of the Latin alphabet, as in a header row or JSON's punctuation); else UTF-8.
 */
export function sniffEncoding(head: Uint8Array, declared?: EncodingName): { encoding: EncodingName; bom: number } {
  const mark = byteOrderMarks.find(({ bytes }) => bytes.every((byte, index) => head[index] === byte));
  if (declared) return { encoding: declared, bom: mark?.encoding === declared ? mark.bytes.length : 0 };
  if (mark) return { encoding: mark.encoding, bom: mark.bytes.length };
  const pairs = Math.floor(Math.min(head.length, sniffBytes) / 2);
  if (pairs >= 2) {
    let evenZero = 0;
    let oddZero = 0;
    for (let pair = 0; pair < pairs; pair++) {
      if (head[pair * 2] === 0) evenZero += 1;
      if (head[pair * 2 + 1] === 0) oddZero += 1;
    }
    // Zero bytes on one side only, in at least half the characters (Arabic letters have none): no UTF-8 text does.
    if (oddZero * 2 >= pairs && evenZero === 0) return { encoding: 'utf-16le', bom: 0 };
    if (evenZero * 2 >= pairs && oddZero === 0) return { encoding: 'utf-16be', bom: 0 };
  }
  return { encoding: 'utf-8', bom: 0 };
}

/** The first bytes of an input that were not text in its encoding, and what they most likely are. */
export interface UndecodableBytes {
  encoding: EncodingName;
  /** Where they start, in bytes from the start of the input. */
  offset: number;
  /** The line they are on, from 1. */
  line: number;
  /**
   * What they most likely are: Arabic in `windows-1256`; another single-byte code page; or `utf-8`, when a
   * single-byte encoding was named for text that is UTF-8 (read in the named one, it would become other letters).
   */
  likely?: 'windows-1256' | 'single-byte' | 'utf-8';
  /**
   * Bytes that are text in the encoding read, yet Arabic Windows-1256 read as ISO-8859-6 (other letters): the first
   * word that shows it, as each reads it. `proven` is false when the word is Arabic in both, and no word of the input
   * is Arabic in ISO-8859-6 alone: nothing shows the encoding named right.
   */
  misread?: { read: string; likely: string; proven: boolean };
}

const replacement = '\uFFFD';

/**
 * Decodes an input a chunk at a time. Invalid bytes become U+FFFD (the schemas refuse the field they land in, so the
 * refusal names it); `undecodable` tells the first of them. A U+FFFD the input itself holds (three bytes EF BF BD)
 * is refused by the schemas too, but is not counted here: it is text, just text that was lost earlier.
 */
export class InputDecoder {
  readonly #declared?: EncodingName;
  #decoder?: InstanceType<typeof TextDecoder>;
  #encoding: EncodingName = 'utf-8';
  #head: Buffer = Buffer.alloc(0);
  #offset = 0;
  #lines = 0;
  #undecodable?: UndecodableBytes;
  /** Whether the first bytes beyond ASCII were looked at for UTF-8 (when a single-byte encoding was named). */
  #lookedForUtf8 = false;
  /** The start of a character beyond ASCII that the end of a piece cut, where it stands in the input. */
  #cutCharacter?: { bytes: Uint8Array; offset: number; line: number };
  /** Each word read in both Arabic code pages, when ISO-8859-6 was named: it must show itself right. */
  #arabicWords?: ArabicWordReader;

  constructor(declared?: EncodingName) {
    this.#declared = declared;
  }

  /** The encoding read (known once the first bytes are in). */
  get encoding(): EncodingName {
    return this.#encoding;
  }

  /** True once the first bytes have decided the encoding. */
  get started(): boolean {
    return this.#decoder !== undefined;
  }

  /** The first bytes that were not text, if any. */
  get undecodable(): UndecodableBytes | undefined {
    return this.#undecodable;
  }

  /** The text of `chunk`; some bytes may wait for the next chunk (a character split between chunks). */
  decode(chunk: Uint8Array): string {
    if (!this.#decoder) {
      // The first bytes decide the encoding: wait for enough of them.
      this.#head = Buffer.concat([this.#head, chunk]);
      if (this.#head.length < sniffBytes) return '';
      return this.#start(this.#head);
    }
    return this.#text(chunk, true);
  }

  /** The text still held back, at the end of the input. */
  end(): string {
    const head = this.#decoder ? '' : this.#start(this.#head);
    const text = head + this.#text(new Uint8Array(0), false);
    this.#arabicWords?.end();
    this.#lookForWindows1256(true);
    return text;
  }

  #start(head: Buffer): string {
    const { encoding, bom } = sniffEncoding(head, this.#declared);
    if (singleByte.has(encoding) && startsWith(head, [0xef, 0xbb, 0xbf])) {
      this.#undecodable = { encoding, offset: 0, line: 1, likely: 'utf-8' };
    }
    this.#encoding = encoding;
    if (encoding === 'iso-8859-6') this.#arabicWords = new ArabicWordReader();
    this.#decoder = new TextDecoder(encoding, { ignoreBOM: true });
    this.#offset = bom;
    this.#head = Buffer.alloc(0);
    return this.#text(head.subarray(bom), true);
  }

  #text(bytes: Uint8Array, stream: boolean): string {
    const text = (this.#decoder as InstanceType<typeof TextDecoder>).decode(bytes, { stream });
    if (!this.#undecodable && !this.#lookedForUtf8 && singleByte.has(this.#encoding)) this.#lookForUtf8(bytes, text);
    if (!this.#undecodable && text.includes(replacement)) this.#findUndecodable(bytes, text);
    this.#arabicWords?.read(bytes);
    this.#lookForWindows1256(false);
    this.#offset += bytes.length;
    if (!this.#undecodable) this.#lines += countLines(text);
    return text;
  }

  /**
   * In a single-byte encoding every byte is a letter, so UTF-8 text read in one becomes other letters without a
   * U+FFFD. Its first bytes beyond ASCII tell: Arabic in Windows-1256 or ISO-8859-6 is never a run of UTF-8
   * sequences, while UTF-8 text is.
   */
  #lookForUtf8(bytes: Uint8Array, text: string): void {
    let run: Uint8Array;
    let at: { offset: number; line: number };
    if (this.#cutCharacter) {
      // The first character beyond ASCII was cut between two pieces: its bytes go on with this piece's.
      run = Buffer.concat([this.#cutCharacter.bytes, bytes.subarray(0, 64)]);
      at = { offset: this.#cutCharacter.offset, line: this.#cutCharacter.line };
      this.#cutCharacter = undefined;
    } else {
      const first = bytes.findIndex((byte) => byte >= 0x80);
      if (first === -1) return;
      run = bytes.subarray(first, first + 64);
      at = { offset: this.#offset + first, line: this.#lines + countLines(text.slice(0, first)) + 1 };
    }
    let decoded: string;
    try {
      decoded = new TextDecoder('utf-8', { fatal: true }).decode(run, { stream: true });
    } catch {
      this.#lookedForUtf8 = true;
      return;
    }
    if (decoded === '') {
      this.#cutCharacter = { bytes: Buffer.from(run), ...at };
      return;
    }
    this.#lookedForUtf8 = true;
    this.#undecodable = { encoding: this.#encoding, ...at, likely: 'utf-8' };
  }

  /**
   * ISO-8859-6 named for Arabic that reads as Windows-1256: refused at its first word that is Arabic in Windows-1256
   * alone; at the `end` of the input, also when no word is Arabic in ISO-8859-6 alone and some are Arabic in both.
   */
  #lookForWindows1256(end: boolean): void {
    const evidence = this.#arabicWords?.evidence;
    if (!evidence || this.#undecodable?.misread) return;
    const word = evidence.only['windows-1256'] ?? (end && !evidence.only['iso-8859-6'] ? evidence.both : undefined);
    // The first in the input is told: a word of this piece may come before its first byte that is no character.
    if (!word || (this.#undecodable && this.#undecodable.offset < word.offset)) return;
    this.#undecodable = {
      encoding: this.#encoding,
      offset: word.offset,
      line: word.line,
      likely: 'windows-1256',
      misread: {
        read: word.as['iso-8859-6'],
        likely: word.as['windows-1256'],
        proven: word === evidence.only['windows-1256'],
      },
    };
  }

  /** Keeps where the first undecodable bytes of `bytes` are, unless every U+FFFD of `text` was written as such. */
  #findUndecodable(bytes: Uint8Array, text: string): void {
    const written = this.#encoding === 'utf-8' ? occurrences(bytes, [0xef, 0xbf, 0xbd]) : 0;
    const index = text.indexOf(replacement);
    if (occurrences(text, replacement) <= written) return;
    this.#undecodable = {
      encoding: this.#encoding,
      offset: this.#offset + bytesOf(text.slice(0, index), this.#encoding),
      line: this.#lines + countLines(text.slice(0, index)) + 1,
      // Windows-1256 read as ISO-8859-6 has bytes of letters (ف ق ك) that are none in ISO-8859-6.
      likely: this.#encoding === 'utf-8' || this.#encoding === 'iso-8859-6' ? likelyCodePage(bytes) : undefined,
    };
  }
}

/** The encodings whose every byte is a character. */
const singleByte: ReadonlySet<EncodingName> = new Set(['windows-1256', 'iso-8859-6']);

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/** How many bytes `text` took in `encoding`. */
function bytesOf(text: string, encoding: EncodingName): number {
  if (encoding === 'utf-8') return Buffer.byteLength(text);
  return encoding === 'utf-16le' || encoding === 'utf-16be' ? text.length * 2 : text.length;
}

function countLines(text: string): number {
  let lines = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines += 1;
  return lines;
}

function occurrences(haystack: Uint8Array | string, needle: string | readonly number[]): number {
  if (typeof haystack === 'string') return haystack.split(needle as string).length - 1;
  let count = 0;
  const first = (needle as number[])[0];
  for (
    let index = haystack.indexOf(first as number);
    index !== -1;
    index = haystack.indexOf(first as number, index + 1)
  ) {
    if ((needle as number[]).every((byte, offset) => haystack[index + offset] === byte)) count += 1;
  }
  return count;
}

/**
 * What bytes that are not UTF-8 most likely are: Arabic in Windows-1256 when most of the letters they give there
 * are Arabic (Excel's "CSV (Comma delimited)" on an Arabic Windows); another single-byte code page otherwise.
 */
export function likelyCodePage(bytes: Uint8Array): 'windows-1256' | 'single-byte' {
  const text = new TextDecoder('windows-1256').decode(bytes);
  let arabic = 0;
  let other = 0;
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code < 0x80 || char === replacement) continue;
    if (code >= 0x0600 && code <= 0x06ff) arabic += 1;
    else other += 1;
  }
  return arabic > 0 && arabic >= other * 3 ? 'windows-1256' : 'single-byte';
}

/** Decodes a whole input read into memory (one invoice's file, or stdin). */
export function decodeWhole(
  bytes: Uint8Array,
  declared?: EncodingName,
): { text: string; undecodable?: UndecodableBytes } {
  const decoder = new InputDecoder(declared);
  const text = decoder.decode(bytes) + decoder.end();
  return { text, undecodable: decoder.undecodable };
}
