import { UsageError, type FieldIssue } from '../errors.js';
import type { RecordFormat } from './input-format.js';

// Streams the records of a file of many invoices, a chunk's worth at a time, so no file is ever held whole, however
// long. Records come out as text with their position and line; parsing is left to the caller, which skips the
// records of other shards without paying for it.

/** One record as written in the file. */
export interface SourceRecord {
  /** Position in the file, from 0. */
  position: number;
  /** Line of the file where the record starts, from 1. */
  line: number;
  /** The record's JSON text; empty for a CSV row, whose record is `value`. */
  text: string;
  /** The record already built (from a CSV row's cells). */
  value?: Record<string, unknown>;
  /** Problems met while building `value`, reported with the schema's. */
  issues?: FieldIssue[];
}

/** A problem or warning of one record: `where` names the record (`row 3`), `field` the field it is about. */
export interface RecordFinding extends FieldIssue {
  where: string;
  field?: string;
}

/** How an issue names where it is: the record alone (no path), or one of its fields. */
export interface IssuePlace {
  (source: Pick<SourceRecord, 'position' | 'line'>, path?: string): string;
  /**
   * A field as a line about many records names it: a workbook's column without the row of its cell (`column amount
   * (Sheet1!D)`). Without it, as the place names it after the record.
   */
  field?(path: string): string;
}

/** `record 3 (line 4)`, `record 3 (line 4): customer.mobile`. */
export const recordAndLine: IssuePlace = (source, path) => {
  const where = `record ${source.position + 1} (line ${source.line})`;
  return path === undefined ? where : `${where}: ${path}`;
};

/** Splits `chunks` into batches of records: one per non-blank line for NDJSON, one per element for a JSON array. */
export function readRecords(
  chunks: AsyncIterable<Buffer>,
  format: Exclude<RecordFormat, 'csv'>,
  name: string,
): AsyncGenerator<SourceRecord[]> {
  return format === 'ndjson' ? ndjsonRecords(chunks) : arrayRecords(chunks, name);
}

async function* decoded(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  // TextDecoder decodes a stream about twice as fast as StringDecoder, with the same text; the BOM is ours to drop.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let first = true;
  for await (const chunk of chunks) {
    let text = decoder.decode(chunk, { stream: true });
    if (first && text.length > 0) {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    if (text.length > 0) yield text;
  }
  const tail = decoder.decode();
  if (tail.length > 0) yield tail;
}

/**
 * NDJSON: each non-blank line is a record; blank lines are skipped but still counted. With `completeLinesOnly`, a
 * last line without its newline is left out (a journal's, torn by a crash).
 */
export async function* ndjsonRecords(
  chunks: AsyncIterable<Buffer>,
  options: { completeLinesOnly?: boolean } = {},
): AsyncGenerator<SourceRecord[]> {
  let rest = '';
  let line = 0;
  let position = 0;
  for await (const text of decoded(chunks)) {
    const buffer = rest + text;
    const batch: SourceRecord[] = [];
    let start = 0;
    for (let end = buffer.indexOf('\n', start); end !== -1; end = buffer.indexOf('\n', start)) {
      line += 1;
      const record = buffer.slice(start, end).trim();
      start = end + 1;
      if (record !== '') batch.push({ position: position++, line, text: record });
    }
    rest = buffer.slice(start);
    if (batch.length > 0) yield batch;
  }
  const last = rest.trim();
  if (last !== '' && !options.completeLinesOnly) yield [{ position, line: line + 1, text: last }];
}

/**
 * A JSON array: each element is a record. Elements are found by tracking strings and nesting, then parsed one by
 * one; a file that is not one array (text after it, or no closing bracket) is refused as a whole.
 */
export async function* arrayRecords(chunks: AsyncIterable<Buffer>, name: string): AsyncGenerator<SourceRecord[]> {
  const scanner = new ArrayScanner(name);
  for await (const text of decoded(chunks)) {
    const batch = [...scanner.feed(text)];
    if (batch.length > 0) yield batch;
  }
  scanner.finish();
}

const enum Char {
  Newline = 10,
  Quote = 34,
  Comma = 44,
  Backslash = 92,
  OpenBracket = 91,
  CloseBracket = 93,
  OpenBrace = 123,
  CloseBrace = 125,
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

class ArrayScanner {
  #state: 'start' | 'between' | 'element' | 'end' = 'start';
  #line = 1;
  #position = 0;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #elementLine = 0;
  /** The element's text from earlier chunks. */
  #pending = '';
  readonly #name: string;

  constructor(name: string) {
    this.#name = name;
  }

  *feed(text: string): Generator<SourceRecord> {
    let elementStart = this.#state === 'element' ? 0 : -1;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (this.#state === 'element') {
        const ended = this.#step(code);
        if (ended !== undefined) {
          const record = this.#pending + text.slice(elementStart, index);
          this.#pending = '';
          elementStart = -1;
          yield { position: this.#position++, line: this.#elementLine, text: record.trim() };
          this.#state = ended === 'array' ? 'end' : 'between';
        }
      } else if (!isSpace(code)) {
        if (this.#state === 'start') {
          if (code !== Char.OpenBracket) throw this.#broken('it does not start with [');
          this.#state = 'between';
        } else if (this.#state === 'between') {
          if (code === Char.CloseBracket) this.#state = 'end';
          else if (code === Char.Comma) throw this.#broken(`an element is missing (line ${this.#line})`);
          else {
            this.#state = 'element';
            this.#elementLine = this.#line;
            elementStart = index;
            this.#depth = 0;
            this.#step(code);
          }
        } else {
          throw this.#broken(`there is more after the closing ] (line ${this.#line})`);
        }
      }
      if (code === Char.Newline) this.#line += 1;
    }
    if (this.#state === 'element') this.#pending += text.slice(elementStart);
  }

  finish(): void {
    if (this.#state !== 'end') throw this.#broken('the list is not closed with ]');
  }

  /** Advances through an element; says whether it ended here, and whether the array did too. */
  #step(code: number): 'element' | 'array' | undefined {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (code === Char.Backslash) this.#escaped = true;
      else if (code === Char.Quote) this.#inString = false;
      return undefined;
    }
    switch (code) {
      case Char.Quote:
        this.#inString = true;
        return undefined;
      case Char.OpenBrace:
      case Char.OpenBracket:
        this.#depth += 1;
        return undefined;
      case Char.CloseBrace:
        this.#depth -= 1;
        return undefined;
      case Char.CloseBracket:
        if (this.#depth === 0) return 'array';
        this.#depth -= 1;
        return undefined;
      case Char.Comma:
        return this.#depth === 0 ? 'element' : undefined;
      default:
        return undefined;
    }
  }

  #broken(reason: string): UsageError {
    return new UsageError(`--file ${this.#name} is not a valid JSON list of invoices: ${reason}; nothing was sent.`);
  }
}
