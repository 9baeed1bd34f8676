import { WorkbookReader } from '@cj-tech-master/excelts';

// A workbook keeps its texts once, in a table (the shared strings) its cells point into. Held as a million JavaScript
// strings, each still holding a slice of the XML it was read from, that table was most of a large sheet's memory: it
// is kept here as UTF-8 in one buffer, and a cell's text is made when its row is read. Excel writes a worksheet before
// its styles and texts, so they are read in a first pass over the file, and the rows in a second.

/** The workbook's table of texts, by index. */
export class WorkbookTexts {
  #bytes = Buffer.allocUnsafe(64 * 1024);
  #used = 0;
  #ends = new Uint32Array(4096);
  #count = 0;

  /** Adds the next text. UTF-8 holds it as it is: the reader refuses half a character (`&#xD800;`). */
  add(text: string): void {
    // Three bytes of UTF-8 at most for each UTF-16 unit.
    if (this.#used + text.length * 3 > this.#bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.#bytes.length * 2, this.#used + text.length * 3));
      this.#bytes.copy(grown, 0, 0, this.#used);
      this.#bytes = grown;
    }
    this.#used += this.#bytes.write(text, this.#used);
    if (this.#count === this.#ends.length) {
      const grown = new Uint32Array(this.#ends.length * 2);
      grown.set(this.#ends);
      this.#ends = grown;
    }
    this.#ends[this.#count++] = this.#used;
  }

  /** The text at `index`, or undefined when the table has none there. */
  text(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.#count) return undefined;
    return this.#bytes.toString('utf8', index === 0 ? 0 : this.#ends[index - 1], this.#ends[index]);
  }
}

/** What the rows of a workbook are read with: its texts, and its styles (which say which numbers are dates). */
export interface WorkbookParts {
  texts: WorkbookTexts;
  styles: WorkbookReader['styles'];
}

/** Reads a workbook's texts and styles, passing over its worksheets unread. */
export async function readWorkbookParts(path: string, maxBufferedWorksheetBytes: number): Promise<WorkbookParts> {
  const texts = new WorkbookTexts();
  const reader = new WorkbookReader(path, {
    worksheets: 'emit',
    sharedStrings: 'emit',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
    maxBufferedWorksheetBytes,
  });
  for await (const event of reader.parse()) {
    if (event.eventType === 'shared-strings') texts.add(sharedText(event.value.text));
    // A worksheet's bytes are drained, not parsed: the reader reads the parts of the zip in order.
    else if (event.eventType === 'worksheet') for await (const chunk of event.value.iterator) void chunk;
  }
  return { texts, styles: reader.styles };
}

/** The text of a text cell, plain or rich (its runs joined). */
export function sharedText(value: unknown): string {
  if (typeof value === 'string') return value;
  const runs = (value as { richText?: Array<{ text?: string | null }> } | undefined)?.richText;
  return runs ? runs.map((run) => run.text ?? '').join('') : '';
}
