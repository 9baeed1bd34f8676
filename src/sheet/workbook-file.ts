import yauzl from 'yauzl';
import { UsageError } from '../errors.js';

// A workbook is a zip of XML parts. Before the workbook reader unpacks any of it, the zip's central directory (the
// sizes it declares, read with yauzl, no part unpacked) is checked, since the reader does not bound what it unpacks:
// a zip bomb, a macro workbook, or no workbook at all is refused before anything is read.

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
} as const;

/** Why a workbook is refused before it is read, or undefined when it may be read. */
export async function workbookProblem(path: string): Promise<string | undefined> {
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, opened) =>
        error ? reject(error) : resolve(opened),
      ),
    );
  } catch {
    return 'it is not an Excel workbook (.xlsx): not a zip file (an .xls of Excel 97-2003, or a workbook with a password?)';
  }
  try {
    if (zip.entryCount > workbookLimits.entries) return `it has ${zip.entryCount} parts, more than a workbook has`;
    let unpacked = 0;
    let contentTypes: yauzl.Entry | undefined;
    let sharedStrings: yauzl.Entry | undefined;
    let sheets = 0;
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      const name = entry.fileName;
      const size = entry.uncompressedSize;
      unpacked += size;
      if (/(^|\/)vbaProject\.bin$/i.test(name)) return macroProblem;
      if (name === '[Content_Types].xml') contentTypes = entry;
      if (/^xl\/worksheets\/[^/]+\.xml$/.test(name)) sheets += 1;
      if (unpacked > workbookLimits.unpackedBytes) return bomb(`its parts unpack to more than ${gib(unpacked)}`);
      if (size > workbookLimits.ratioFrom && size > entry.compressedSize * workbookLimits.ratio) {
        return bomb(
          `its part ${name} unpacks to ${Math.round(size / Math.max(entry.compressedSize, 1))} times its size`,
        );
      }
      if (name === 'xl/sharedStrings.xml') sharedStrings = entry;
    }
    // The table of texts is held in memory while the rows are read: unpacked here for real, counting its bytes (yauzl
    // refuses a part that unpacks to other than it declares), so a lying size cannot pass.
    if (sharedStrings && (await unpackedSize(zip, sharedStrings, workbookLimits.sharedStringsBytes)) === undefined) {
      return `its table of texts (shared strings) unpacks to more than ${gib(workbookLimits.sharedStringsBytes)}, more than a sheet of invoices holds`;
    }
    if (!contentTypes || sheets === 0) return 'it is not an Excel workbook (.xlsx): it has no worksheet';
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

/** The bytes of a part, read until the end or past `limit`; undefined when it unpacks to more than `limit`. */
async function entryBytes(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  limit: number,
  keep: boolean,
): Promise<Buffer[] | undefined> {
  if (entry.uncompressedSize > limit) return undefined;
  const stream = await new Promise<NodeJS.ReadableStream & { destroy(): void }>((resolve, reject) =>
    zip.openReadStream(entry, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const chunks: Buffer[] = [];
  let size = 0;
  // yauzl checks that the part unpacks to the size it declares.
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      stream.destroy();
      return undefined;
    }
    if (keep) chunks.push(chunk);
  }
  return chunks;
}

async function entryText(zip: yauzl.ZipFile, entry: yauzl.Entry, limit: number): Promise<string | undefined> {
  const chunks = await entryBytes(zip, entry, limit, true);
  return chunks && Buffer.concat(chunks).toString('utf8');
}

async function unpackedSize(zip: yauzl.ZipFile, entry: yauzl.Entry, limit: number): Promise<number | undefined> {
  return (await entryBytes(zip, entry, limit, false)) && entry.uncompressedSize;
}

/** Refuses a workbook that must not be read, naming it as `--file` was given. */
export async function checkWorkbook(path: string, name: string): Promise<void> {
  const problem = await workbookProblem(path);
  if (problem) throw new UsageError(`--file ${name} was not read: ${problem}; nothing was sent.`);
}
