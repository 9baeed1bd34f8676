import { constants, createReadStream } from 'node:fs';
import { access, open, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { jsonProblem, undecodableInputError } from '../input/json-file.js';
import { decodeWhole, InputDecoder, type EncodingName, type UndecodableBytes } from '../input/text-encoding.js';
import { parseJsonExactly } from '../schemas/exact-json.js';

// Decides what `--file` holds by looking at its first lines only, so a long file is never read twice: one JSON
// object (the one-invoice flow), a JSON array of invoices, or NDJSON (one invoice per line).

/** How the records of a file of many invoices are written. */
export type RecordFormat = 'array' | 'ndjson' | 'csv' | 'xlsx';

/** What `--file` holds. */
export type InvoiceFileInput =
  | { kind: 'one'; value: unknown }
  | {
      kind: 'many';
      format: RecordFormat;
      /** The path as given (`-` for stdin). */
      path: string;
      /** The file's absolute path; undefined for stdin. */
      absolutePath?: string;
      /** How messages name it: the path, or `stdin`. */
      name: string;
      /** The bytes of the input as UTF-8, from the start, whatever its encoding; call once. */
      open(): AsyncIterable<Buffer>;
      /** The first bytes that were not text in the input's encoding, once read that far. */
      undecodable(): UndecodableBytes | undefined;
      /**
       * The same file to read again from its start, in `encoding` (the one named when absent), as the encoding it
       * most likely is would read it; none for stdin, which is read once.
       */
      reread?(encoding?: EncodingName): ManyRecords;
    };

/** A file of many records, as `--file` reads it. */
type ManyRecords = Extract<InvoiceFileInput, { kind: 'many' }>;

const ndjsonExtensions = new Set(['.ndjson', '.jsonl']);
const csvExtensions = new Set(['.csv', '.tsv']);
/** A macro workbook (.xlsm) is read as one, to be refused as one. */
const workbookExtensions = new Set(['.xlsx', '.xlsm']);
/** How far detection reads while looking for the end of the first two lines. */
const peekLimit = 1 << 20;

/**
 * Reads just enough of `--file` to tell one invoice from many; one invoice is parsed as before. `forced` is
 * `--format`: CSV and NDJSON are always many; JSON is one invoice or an array.
 */
export async function readInvoiceFile(
  path: string,
  context: CommandContext,
  forced?: 'csv' | 'ndjson' | 'json' | 'xlsx',
  encoding?: EncodingName,
): Promise<InvoiceFileInput> {
  const name = path === '-' ? 'stdin' : path;
  const named = forced === 'csv' || forced === 'ndjson' || forced === 'xlsx' ? forced : undefined;
  if (path === '-' && named === 'xlsx') {
    throw new UsageError('A workbook is read from a file, not from stdin; nothing was sent.', {
      hint: 'Save it and give its path: --file invoices.xlsx.',
    });
  }
  if (path !== '-') {
    const absolutePath = resolve(context.cwd, path);
    const extension = extname(absolutePath).toLowerCase();
    const byExtension = forced
      ? named
      : ndjsonExtensions.has(extension)
        ? 'ndjson'
        : csvExtensions.has(extension)
          ? 'csv'
          : workbookExtensions.has(extension)
            ? 'xlsx'
            : undefined;
    const head = byExtension ? '' : await peekFile(absolutePath, name, encoding);
    const format = byExtension ?? detectFormat(head);
    if (format === undefined || !(await readable(absolutePath))) {
      // One invoice (or a file that cannot be read): read as the one-invoice flow always has, with its messages.
      const { readJsonInput } = await import('../input/json-file.js');
      const value = await readJsonInput(path, context, '--file', encoding).catch((error: unknown) => {
        throw withSheetHint(error, head);
      });
      return { kind: 'one', value };
    }
    if (format === 'xlsx') {
      const { checkWorkbook } = await import('./workbook-file.js');
      await checkWorkbook(absolutePath, name);
    }
    return many(format, path, name, absolutePath, encoding, () =>
      createReadStream(absolutePath, { highWaterMark: 1 << 16 }),
    );
  }
  if (named) {
    const stdin = (context.stdin as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    return many(named, path, name, undefined, encoding, () => replay(Buffer.alloc(0), stdin));
  }
  const peeked = await peekStream(context.stdin, encoding);
  const format = detectFormat(peeked.text);
  if (format === undefined) {
    const content = Buffer.concat([peeked.head, ...(await drain(peeked.rest))]);
    try {
      return { kind: 'one', value: parseWhole(content, name, encoding) };
    } catch (error) {
      throw withSheetHint(error, peeked.text);
    }
  }
  return many(format, path, name, undefined, encoding, () => replay(peeked.head, peeked.rest));
}

/**
 * The most bytes of input worked on at once: what a piece becomes stays in memory until the plan has checked it, so
 * small pieces keep a large file's memory flat (the bench measures it).
 */
const pieceBytes = 1 << 13;

/**
 * The input in pieces, as UTF-8: a UTF-8 input's own bytes (its invalid ones are left for the readers' decoders to
 * mark, as `decoder` does), any other encoding's text encoded.
 */
async function* inPieces(chunks: AsyncIterable<Buffer>, decoder: InputDecoder): AsyncGenerator<Buffer> {
  // Bytes read before the decoder knows the encoding (it waits for the first few): given out once it does.
  let held: Buffer[] = [];
  const out = (piece: Buffer, text: string): Buffer[] => {
    if (!decoder.started) {
      held.push(piece);
      return [];
    }
    const pieces = decoder.encoding === 'utf-8' ? [...held, piece] : text === '' ? [] : [Buffer.from(text)];
    held = [];
    return pieces;
  };
  for await (const chunk of chunks) {
    for (let start = 0; start < chunk.length; start += pieceBytes) {
      const piece = chunk.subarray(start, start + pieceBytes);
      yield* out(piece, decoder.decode(piece));
    }
  }
  const rest = decoder.end();
  if (decoder.encoding === 'utf-8') yield* held;
  else if (rest !== '') yield Buffer.from(rest);
}

function many(
  format: RecordFormat,
  path: string,
  name: string,
  absolutePath: string | undefined,
  encoding: EncodingName | undefined,
  read: () => AsyncIterable<Buffer>,
): ManyRecords {
  let opened = false;
  const decoder = new InputDecoder(encoding);
  return {
    kind: 'many',
    format,
    path,
    absolutePath,
    name,
    open() {
      if (opened) throw new Error(`${name} can be read only once`);
      opened = true;
      return inPieces(read(), decoder);
    },
    undecodable: () => decoder.undecodable,
    ...(absolutePath === undefined
      ? {}
      : { reread: (other?: EncodingName) => many(format, path, name, absolutePath, other ?? encoding, read) }),
  };
}

/**
 * The format of a text from its beginning: `[` starts an array of invoices (an empty array is not a batch);
 * `{` starts NDJSON when a line is a whole JSON object and another line follows. Undefined means one document.
 */
export function detectFormat(text: string): RecordFormat | undefined {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body.startsWith('[')) return /^\[\s*\]/.test(body) ? undefined : 'array';
  if (!body.startsWith('{')) return undefined;
  const lines = body.split('\n').filter((line) => line.trim() !== '');
  const [first, second] = lines;
  if (first !== undefined && isJsonObject(first)) return second === undefined ? undefined : 'ndjson';
  // A broken first record followed by a whole object on the next line is still NDJSON; a pretty-printed object's
  // second line (`"key": value,`) never parses as an object on its own.
  return second !== undefined && isJsonObject(second) ? 'ndjson' : undefined;
}

function isJsonObject(line: string): boolean {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return false;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Enough of the text to detect its format: up to the end of its second non-blank line, or `peekLimit`. */
function enoughToDetect(text: string): boolean {
  if (text.length >= peekLimit) return true;
  const body = text.trimStart();
  if (body.startsWith('[')) return /^\[\s*\S/.test(body);
  let lines = 0;
  for (const line of body.split('\n').slice(0, -1)) if (line.trim() !== '' && ++lines === 2) return true;
  return false;
}

/** A file (or a pipe) this process may read. */
async function readable(absolutePath: string): Promise<boolean> {
  try {
    await access(absolutePath, constants.R_OK);
    const info = await stat(absolutePath);
    return info.isFile() || info.isFIFO();
  } catch {
    return false;
  }
}

async function peekFile(absolutePath: string, name: string, encoding?: EncodingName): Promise<string> {
  let handle;
  try {
    handle = await open(absolutePath, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // The one-invoice reader words these errors; let it.
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') return '';
    throw new UsageError(`Cannot read --file ${name}: ${(error as Error).message}.`);
  }
  try {
    let text = '';
    const read: Buffer[] = [];
    for (let position = 0; !enoughToDetect(text);) {
      const buffer = Buffer.alloc(1 << 16);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      read.push(buffer.subarray(0, bytesRead));
      text = decodeWhole(Buffer.concat(read), encoding).text;
    }
    return text;
  } catch {
    return '';
  } finally {
    await handle.close();
  }
}

interface PeekedStream {
  text: string;
  head: Buffer;
  rest: AsyncIterator<Buffer>;
}

async function peekStream(stream: NodeJS.ReadableStream, encoding?: EncodingName): Promise<PeekedStream> {
  const rest = (stream as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const chunks: Buffer[] = [];
  let text = '';
  while (!enoughToDetect(text)) {
    const next = await rest.next();
    if (next.done) break;
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    chunks.push(chunk);
    text = decodeWhole(Buffer.concat(chunks), encoding).text;
  }
  return { text, head: Buffer.concat(chunks), rest: rest as AsyncIterator<Buffer> };
}

/** The bytes already read, then the rest of the stream (text chunks as bytes). */
export async function* replay(head: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (head.length > 0) yield head;
  for (let next = await rest.next(); !next.done; next = await rest.next()) {
    yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
  }
}

async function drain(rest: AsyncIterator<Buffer>): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for (let next = await rest.next(); !next.done; next = await rest.next()) {
    chunks.push(typeof next.value === 'string' ? Buffer.from(next.value) : next.value);
  }
  return chunks;
}

/**
 * A JSON error about input whose first line reads as a spreadsheet's header (a CSV sheet on stdin, or in a file
 * not named .csv), with the way to read it as one.
 */
function withSheetHint(error: unknown, head: string): unknown {
  // A zip's first bytes: an Excel workbook by another name, or on stdin.
  if (error instanceof UsageError && head.startsWith('PK\u0003\u0004')) {
    return new UsageError(error.message, {
      hint: 'It is a zip file, as an Excel workbook is: give its path with --format xlsx, or name it .xlsx.',
    });
  }
  const firstLine = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const looksLikeHeader = /^[^{["]/.test(firstLine.trim()) && /[,;\t|]/.test(firstLine);
  if (!(error instanceof UsageError) || !looksLikeHeader || error.hint) return error;
  return new UsageError(error.message, {
    hint: 'Its first line reads as a CSV header: add --format csv to read it as a sheet of invoices.',
  });
}

function parseWhole(content: Buffer, name: string, encoding?: EncodingName): unknown {
  const { text, undecodable } = decodeWhole(content, encoding);
  let value: unknown;
  try {
    value = parseJsonExactly(text);
  } catch (error) {
    if (undecodable) throw undecodableInputError(undecodable, `--file ${name}`);
    throw new UsageError(`--file ${name} is not valid JSON: ${jsonProblem(text, (error as Error).message)}.`);
  }
  if (undecodable) throw undecodableInputError(undecodable, `--file ${name}`, value);
  return value;
}
