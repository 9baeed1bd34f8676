import { createReadStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { openPrivate } from '../private-file.js';
import { ndjsonRecords } from './records.js';

// The records to send, as planned, in a file beside the journal: the input is read once (stdin cannot be read
// twice) and validated whole before the first request, without holding every body in memory.

/** One record to send. */
export interface SpoolEntry {
  /** Index of the record among the run's results. */
  index: number;
  key: string;
  /** The journal already holds its planned body. */
  journaled: boolean;
  /** An earlier run sent it without learning the outcome. */
  previouslySent: boolean;
  /** The body's businessReference, when it has one. */
  businessReference?: string;
  /**
   * The body as JSON text, as it is sent and journaled: kept as text from the plan to the request, so no record is
   * parsed and written out again on the way.
   */
  bodyJson: string;
}

export class Spool {
  readonly #file: string;
  readonly #out: WriteStream;
  #error: Error | undefined;

  /**
   * A spool in `file` (beside the journal, whose lock keeps other runs away), replacing one a killed run left; the
   * user's alone (0600) as every file of customers' data is (src/private-file.ts).
   */
  static async open(file: string): Promise<Spool> {
    const handle = await openPrivate(file, 'w');
    return new Spool(file, handle.createWriteStream({ highWaterMark: 1 << 20 }));
  }

  private constructor(file: string, out: WriteStream) {
    this.#file = file;
    this.#out = out;
    this.#out.on('error', (error) => (this.#error = error));
  }

  /** Adds a record; returns a promise to wait for when the file falls behind. */
  write(entry: SpoolEntry): Promise<void> | undefined {
    if (this.#error) throw new Error(`Cannot write ${this.#file}: ${this.#error.message}`, { cause: this.#error });
    // One line: the entry without its body, a tab (which JSON text never holds unescaped), the body's JSON text.
    const { bodyJson, ...header } = entry;
    if (this.#out.write(`${JSON.stringify(header)}\t${bodyJson}\n`)) return undefined;
    return once(this.#out, 'drain').then(() => undefined);
  }

  /** Finishes writing; call before `read`. */
  async finish(): Promise<void> {
    this.#out.end();
    await finished(this.#out);
  }

  /** The records in the order they were written. */
  async *read(): AsyncGenerator<SpoolEntry> {
    for await (const batch of ndjsonRecords(createReadStream(this.#file, { highWaterMark: 1 << 16 }))) {
      for (const { text } of batch) {
        const tab = text.indexOf('\t');
        yield { ...(JSON.parse(text.slice(0, tab)) as Omit<SpoolEntry, 'bodyJson'>), bodyJson: text.slice(tab + 1) };
      }
    }
  }

  /** Removes the file. */
  async dispose(): Promise<void> {
    // Closed before it is removed, so no write lands in a file that has gone.
    this.#out.destroy();
    await finished(this.#out).catch(() => undefined);
    await rm(this.#file, { force: true });
  }
}
