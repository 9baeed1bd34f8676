import yauzl from 'yauzl';
import { UsageError } from '../errors.js';
import { formatCount } from '../schemas/number-text.js';

// A workbook is a zip of XML parts. Before the workbook reader unpacks any of it, the zip's central directory (the
// sizes it declares, read with yauzl) is checked, then every part is unpacked here and its real size counted, since the
// reader bounds neither what it unpacks nor a cell's text: a zip bomb, a directory that lies about its sizes, a cell
// longer than Excel holds, a macro workbook, or no workbook at all is refused before anything is read.

/** The limits a workbook is held to; a merchant's sheet of a million invoices stays far inside them. */
export const workbookLimits = {
  /** What all its parts may unpack to. */
  unpackedBytes: 4 * 1024 ** 3,
  /** How many times its packed size a part larger than `ratioFrom` may unpack to (Excel's XML packs 5 to 20 times). */
  ratio: 200,
  ratioFrom: 1024 ** 2,
  /** The shared-strings part (every text of the workbook, held in memory, as UTF-8, while its rows are read). */
  sharedStringsBytes: 160 * 1024 ** 2,
  /** The parts of the workbook. */
  entries: 10_000,
  /** The characters of a cell, as Excel holds them. */
  cellCharacters: 32_767,
} as const;

/** The most bytes of XML a cell's text takes between two tags (`_x000D_` is seven bytes for one character). */
const cellBytes = workbookLimits.cellCharacters * 7;

/** Why a workbook is refused before it is read, or undefined when it may be read. */
export async function workbookProblem(path: string): Promise<string | undefined> {
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      // Sizes are counted here, as each part unpacks, to name a part that lies about its size.
      yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: false }, (error, opened) =>
        error ? reject(error) : resolve(opened),
      ),
    );
  } catch {
    return 'it is not an Excel workbook (.xlsx): not a zip file (an .xls of Excel 97-2003, or a workbook with a password?)';
  }
  try {
    if (zip.entryCount > workbookLimits.entries) return `it has ${zip.entryCount} parts, more than a workbook has`;
    let declared = 0;
    let contentTypes: yauzl.Entry | undefined;
    let sheets = 0;
    const entries: yauzl.Entry[] = [];
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      const name = entry.fileName;
      const size = entry.uncompressedSize;
      declared += size;
      if (/(^|\/)vbaProject\.bin$/i.test(name)) return macroProblem;
      if (name === '[Content_Types].xml') contentTypes = entry;
      if (worksheetPart.test(name)) sheets += 1;
      if (declared > workbookLimits.unpackedBytes) return bomb(`its parts unpack to more than ${gib(declared)}`);
      if (size > workbookLimits.ratioFrom && size > entry.compressedSize * workbookLimits.ratio) {
        return bomb(
          `its part ${name} unpacks to ${Math.round(size / Math.max(entry.compressedSize, 1))} times its size`,
        );
      }
      entries.push(entry);
    }
    if (!contentTypes || sheets === 0) return 'it is not an Excel workbook (.xlsx): it has no worksheet';
    // The workbook reader trusts what each part unpacks to: every part is unpacked here first, its real size counted
    // against the size its directory declares, so a lying directory cannot drive the reader past these limits.
    for (const entry of entries) {
      const problem = await unpackedProblem(zip, entry);
      if (problem) return problem;
    }
    // The part is small (a few hundred bytes); a macro workbook's main part says so by its content type.
    const types = await entryText(zip, contentTypes, 1024 ** 2);
    if (types === undefined || /macroEnabled/i.test(types)) return macroProblem;
    return undefined;
  } catch (error) {
    return `it is not a readable workbook: ${(error as Error).message}`;
  } finally {
    zip.close();
  }
}

const worksheetPart = /^xl\/worksheets\/[^/]+\.xml$/;

/** Why a part, unpacked for real, must not be read: more bytes than declared, or a cell longer than Excel holds. */
async function unpackedProblem(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string | undefined> {
  const name = entry.fileName;
  const texts = name === 'xl/sharedStrings.xml';
  // The table of texts is held in memory while the rows are read.
  if (texts && entry.uncompressedSize > workbookLimits.sharedStringsBytes) return textsProblem;
  const scan = texts || worksheetPart.test(name) ? new LongTextScan() : undefined;
  const stream = await openEntry(zip, entry);
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > entry.uncompressedSize) {
        return bomb(
          `its part ${name} unpacks to more than the ${bytesText(entry.uncompressedSize)} its zip directory declares`,
        );
      }
      const cell = scan?.longText(chunk);
      if (cell !== undefined) {
        const where = texts
          ? 'a text of its table of texts (shared strings)'
          : cell
            ? `its cell ${cell} (${name})`
            : `a cell of ${name}`;
        return `${where} holds more than the ${formatCount(workbookLimits.cellCharacters)} characters a cell of Excel holds`;
      }
    }
  } finally {
    stream.destroy();
  }
  if (size !== entry.uncompressedSize) {
    return `it is not a readable workbook: its part ${name} unpacks to ${bytesText(size)}, not the ${bytesText(entry.uncompressedSize)} its zip directory declares`;
  }
  return undefined;
}

const textsProblem = `its table of texts (shared strings) unpacks to more than ${Math.round(workbookLimits.sharedStringsBytes / 1024 ** 2)} MiB, more than a sheet of invoices holds`;

/**
 * Reads a worksheet's or the table of texts' XML as it unpacks, for a run of bytes between two tags longer than a cell
 * of Excel can hold, which the reader would make into one string. A chunk is shorter than such a run, so only a run
 * across chunks is counted: two searches a chunk, whatever the sheet holds.
 */
class LongTextScan {
  /** Bytes since the last `<`. */
  #run = 0;
  /** The chunk the run began in: the cell's tag (`<c r="B4" ...>`) is read from it only when the run is too long. */
  #runChunk: Buffer | undefined;

  /** The cell (`B4`, or '' when unknown) in which `chunk` ends a run longer than a cell holds; undefined if none. */
  longText(chunk: Buffer): string | undefined {
    if (chunk.length > cellBytes) return this.#slowly(chunk);
    const first = chunk.indexOf(0x3c);
    if (first < 0) {
      this.#run += chunk.length;
      return this.#run > cellBytes ? this.#cell() : undefined;
    }
    if (this.#run + first > cellBytes) return this.#cell();
    const last = chunk.lastIndexOf(0x3c);
    this.#run = chunk.length - last - 1;
    this.#runChunk = chunk;
    return undefined;
  }

  /** A chunk longer than a cell's text can be, read tag by tag. */
  #slowly(chunk: Buffer): string | undefined {
    for (let at = 0; at < chunk.length;) {
      const tag = chunk.indexOf(0x3c, at);
      this.#run += (tag < 0 ? chunk.length : tag) - at;
      if (this.#run > cellBytes) return this.#cell();
      if (tag < 0) break;
      this.#run = 0;
      this.#runChunk = chunk.subarray(0, tag + 1);
      at = tag + 1;
    }
    return undefined;
  }

  #cell(): string {
    const chunk = this.#runChunk;
    const at = chunk?.lastIndexOf('<c ') ?? -1;
    const tag = at < 0 ? '' : (chunk?.toString('latin1', at, at + 80) ?? '');
    return /^<c [^>]*?\br="([A-Z]{1,3}[0-9]{1,7})"/.exec(tag)?.[1] ?? '';
  }
}

const macroProblem =
  'it is a macro workbook (.xlsm, with a VBA project): einvoice reads only .xlsx workbooks, whose macros cannot run';

function bomb(reason: string): string {
  return `${reason}, as a zip bomb does: refused unread`;
}

function gib(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => {
      cleanup();
      resolve(entry);
    };
    const onEnd = () => {
      cleanup();
      resolve(undefined);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream & { destroy(): void }> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
}

/** A part's text, read until the end or past `limit`; undefined when it unpacks to more than `limit`. */
async function entryText(zip: yauzl.ZipFile, entry: yauzl.Entry, limit: number): Promise<string | undefined> {
  if (entry.uncompressedSize > limit) return undefined;
  const stream = await openEntry(zip, entry);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) return undefined;
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A size as a merchant reads it: bytes, KiB or MiB. */
function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  return bytes < 1024 ** 2 ? `${Math.round(bytes / 1024)} KiB` : gib(bytes);
}

/** Refuses a workbook that must not be read, naming it as `--file` was given. */
export async function checkWorkbook(path: string, name: string): Promise<void> {
  const problem = await workbookProblem(path);
  if (problem) throw new UsageError(`--file ${name} was not read: ${problem}; nothing was sent.`);
}
