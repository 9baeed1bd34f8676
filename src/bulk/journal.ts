import { open, type FileHandle } from 'node:fs/promises';
import type { InvoiceKind } from '../schemas/invoice.js';

// The write-ahead journal of a bulk run: NDJSON, one entry per line, appended and fsynced in groups. An entry is on
// disk before the step it guards (a record's `sent` before its request, for records whose resend is not safe), so
// whatever instant the process dies at, the next run knows what each record went through.

/** Bumped when the entries change shape; a journal of another version is refused rather than misread. */
export const journalVersion = 1;

/** The entries of the journal. */
export type JournalEntry =
  /** A run started; the first run's `resolveDatesAt` is the instant every relative date of the batch resolves to. */
  | {
      type: 'run';
      version: number;
      at: string;
      resolveDatesAt: string;
      kind: InvoiceKind;
      input: string;
      shard?: string;
    }
  /** The body a record is sent with, dates resolved: a rerun sends this exact body. */
  | { type: 'planned'; key: string; record: number; line?: number; businessReference?: string; body: unknown }
  /** The request is about to go out (or went out): from here its outcome is unknown until the next entry. */
  | { type: 'sent'; key: string; at: string }
  /** The service created it; `alreadyExisted` when it answered that the invoice existed (a duplicate). */
  | { type: 'created'; key: string; invoiceNumber?: string; alreadyExisted?: boolean }
  /** It was not created; a rerun sends it again. */
  | { type: 'failed'; key: string; error: string; status?: number; code?: string }
  /** It was sent and may or may not have been created. */
  | { type: 'uncertain'; key: string; error: string };

interface Batch {
  promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // Callers may not wait for every batch; a failure is also kept in `error` and thrown by the next append.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** Appends entries with group commit: the entries appended while one write and fsync run go out in the next. */
export class JournalWriter {
  readonly path: string;
  readonly #handle: FileHandle;
  #pending: string[] = [];
  #pendingBatch: Batch | undefined;
  #inflight: Promise<void> | undefined;
  #running = false;
  #error: Error | undefined;

  private constructor(path: string, handle: FileHandle) {
    this.path = path;
    this.#handle = handle;
  }

  /** Opens `path` for appending, first cutting off a torn last line (one a crash left without its newline). */
  static async open(path: string): Promise<JournalWriter> {
    const handle = await open(path, 'a+');
    try {
      await cutTornTail(handle);
      return new JournalWriter(path, handle);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Set once a write or fsync failed: nothing more may be sent, since nothing more can be recorded. */
  get error(): Error | undefined {
    return this.#error;
  }

  /** Queues an entry; it is written with the next group. Throws if the journal can no longer be written. */
  append(entry: JournalEntry): void {
    if (this.#error) throw this.#error;
    this.#pending.push(`${JSON.stringify(entry)}\n`);
    this.#pendingBatch ??= newBatch();
    if (!this.#running) void this.#run();
  }

  /** Resolves once every entry appended so far is on disk. */
  durable(): Promise<void> {
    if (this.#error) return Promise.reject(this.#error);
    return this.#pendingBatch?.promise ?? this.#inflight ?? Promise.resolve();
  }

  /** Writes what is queued and closes the file. */
  async close(): Promise<void> {
    try {
      await this.durable();
    } finally {
      await this.#handle.close();
    }
  }

  async #run(): Promise<void> {
    this.#running = true;
    while (this.#pendingBatch) {
      const batch = this.#pendingBatch;
      const text = this.#pending.join('');
      this.#pending = [];
      this.#pendingBatch = undefined;
      this.#inflight = batch.promise;
      try {
        await this.#handle.appendFile(text);
        await this.#handle.datasync();
        batch.resolve();
      } catch (error) {
        this.#error = new Error(`Cannot write the journal ${this.path}: ${(error as Error).message}`, { cause: error });
        batch.reject(this.#error);
        // Entries appended while this group was being written fail with it.
        (this.#pendingBatch as Batch | undefined)?.reject(this.#error);
        this.#pendingBatch = undefined;
      }
    }
    this.#inflight = undefined;
    this.#running = false;
  }
}

/** Truncates the file after its last newline: a line without one was being written when the process died. */
async function cutTornTail(handle: FileHandle): Promise<void> {
  const { size } = await handle.stat();
  if (size === 0) return;
  const chunk = Buffer.alloc(Math.min(size, 1 << 16));
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const newline = chunk.subarray(0, bytesRead).lastIndexOf(10);
    if (newline !== -1) {
      const keep = start + newline + 1;
      if (keep !== size) await handle.truncate(keep);
      return;
    }
    end = start;
  }
  await handle.truncate(0);
}
