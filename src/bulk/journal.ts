import { fdatasyncSync, ftruncateSync, writeSync } from 'node:fs';
import { rm, stat, truncate, type FileHandle } from 'node:fs/promises';
import type { RecordKindName } from './kind.js';
import { openPrivate } from '../private-file.js';

// The write-ahead journal of a bulk run: NDJSON, one entry per line, appended and fsynced in groups. An entry is on
// disk before the step it guards (a record's `sent` before its request, for records whose resend is not safe), so
// whatever instant the process dies at, the next run knows what each record went through.

/** Bumped when the entries change shape; a journal of another version is refused rather than misread. */
export const journalVersion = 1;

/** The entries of the journal. */
export type JournalEntry =
  /**
   * A run started; the first run's `resolveDatesAt` is the instant every relative date of the batch resolves to.
   * `environment` and `service` (its base URL, or the built-in sandbox's state file) name the target: a journal
   * belongs to one.
   */
  | {
      type: 'run';
      version: number;
      at: string;
      resolveDatesAt: string;
      kind: RecordKindName;
      input: string;
      shard?: string;
      environment: string;
      service: string;
    }
  /** The body a record is sent with, dates resolved: a rerun sends this exact body. */
  | { type: 'planned'; key: string; record: number; line?: number; businessReference?: string; body: unknown }
  /** The request is about to go out (or went out): from here its outcome is unknown until the next entry. */
  | { type: 'sent'; key: string; at: string }
  /**
   * The service created it; `alreadyExisted` when it answered that the invoice existed (a duplicate); `sandboxState`
   * the sandbox state that answered. `marked` (with the instant `at`) when it is the merchant's word, not an answer.
   */
  | {
      type: 'created';
      key: string;
      invoiceNumber?: string;
      alreadyExisted?: boolean;
      sandboxState?: string;
      marked?: true;
      at?: string;
    }
  /** It was not created (or, `marked`, the merchant said it was not); a rerun sends it again. */
  | { type: 'failed'; key: string; error: string; status?: number; code?: string; marked?: true; at?: string }
  /** It was sent and may or may not have been created. */
  | { type: 'uncertain'; key: string; error: string };

/** How long an entry nobody waits for may stay written but not yet synced to the disk. */
const defaultSyncEveryMs = 50;

interface Waiter {
  /** Resolved once this many entries are on the disk. */
  upTo: number;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Appends entries with group commit. The entries appended in one turn of the event loop are written as one group at
 * its end, so a killed process loses nothing written (the system keeps it); the group is synced to the disk at once
 * when someone waits for it (`durable()`), and otherwise within `syncEveryMs` (50 ms), which a power cut could cost.
 * Writes and syncs are made on the main thread: a request that waits for its entry leaves in the same turn, not
 * after round trips through the thread pool that a busy event loop would each delay.
 */
export class JournalWriter {
  readonly path: string;
  readonly #handle: FileHandle;
  readonly #syncEveryMs: number;
  #pending: string[] = [];
  #appended = 0;
  #written = 0;
  #synced = 0;
  #lastSync = performance.now();
  #waiters: Waiter[] = [];
  /** Waiting for entries to be written, not synced. */
  #writeWaiters: Waiter[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: NodeJS.Immediate | undefined;
  #error: Error | undefined;
  #closed = false;
  /** The file's size once every group written so far is in it whole, and once synced. */
  #writtenBytes: number;
  #syncedBytes: number;

  /** The file's size when it was opened (0 for a new one): where this run's entries begin. */
  readonly startsAt: number;
  readonly #existed: boolean;

  private constructor(path: string, handle: FileHandle, syncEveryMs: number, startsAt: number, existed: boolean) {
    this.path = path;
    this.#handle = handle;
    this.#syncEveryMs = syncEveryMs;
    this.startsAt = startsAt;
    this.#existed = existed;
    this.#writtenBytes = startsAt;
    this.#syncedBytes = startsAt;
  }

  /** Opens `path` for appending, first cutting off a torn last line (one a crash left without its newline). */
  static async open(path: string, { syncEveryMs = defaultSyncEveryMs } = {}): Promise<JournalWriter> {
    // The journal holds every invoice's body: the user's alone.
    const existed = await stat(path).then(
      () => true,
      () => false,
    );
    const handle = await openPrivate(path, 'a+');
    try {
      await cutTornTail(handle);
      const { size } = await handle.stat();
      return new JournalWriter(path, handle, syncEveryMs, size, existed);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Queues an entry; it is written with the next group. Throws if the journal can no longer be written. */
  append(entry: JournalEntry): void {
    this.#enqueue(JSON.stringify(entry));
  }

  /** Queues a record's `planned` entry, its body given as JSON text (written as it is). */
  appendPlanned(planned: Omit<Extract<JournalEntry, { type: 'planned' }>, 'type' | 'body'>, bodyJson: string): void {
    const fields = JSON.stringify({ type: 'planned', ...planned });
    this.#enqueue(`${fields.slice(0, -1)},"body":${bodyJson}}`);
  }

  #enqueue(line: string): void {
    if (this.#error) throw this.#error;
    this.#pending.push(`${line}\n`);
    this.#appended += 1;
    this.#scheduleFlush();
  }

  /** Resolves once every entry appended so far is written to the file (not necessarily synced to the disk). */
  written(): Promise<void> {
    if (this.#error) return Promise.reject(this.#error);
    if (this.#written === this.#appended) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#writeWaiters.push({ upTo: this.#appended, resolve, reject });
      this.#scheduleFlush();
    });
  }

  /** Resolves once every entry appended so far is on disk. */
  durable(): Promise<void> {
    if (this.#error) return Promise.reject(this.#error);
    if (this.#synced === this.#appended) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiters.push({ upTo: this.#appended, resolve, reject });
      this.#scheduleFlush();
    });
  }

  /**
   * Closes the file without what this run appended: a run that ends up sending nothing leaves the journal as it
   * found it (and none at all where there was none).
   */
  async discard(): Promise<void> {
    this.#appended -= this.#pending.length;
    this.#pending = [];
    await this.close().catch(() => undefined);
    if (this.#existed) await truncate(this.path, this.startsAt);
    else await rm(this.path, { force: true });
  }

  /** Writes what is queued and closes the file; once closed, closing again does nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.durable();
    } finally {
      clearTimeout(this.#timer);
      clearImmediate(this.#flushing);
      await this.#handle.close();
    }
  }

  /** Flushes once the current turn is over, with whatever else it appends or waits for. */
  #scheduleFlush(): void {
    this.#flushing ??= setImmediate(() => this.#flush());
  }

  /** Writes the queued entries as one group, and syncs the file if someone waits or the interval is up. */
  #flush(): void {
    this.#flushing = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#error) return;
    try {
      if (this.#pending.length > 0) this.#writeGroup();
      if (this.#syncDue()) this.#sync();
    } catch (error) {
      this.#fail(error);
      return;
    }
    if (this.#written > this.#synced) {
      // Written, not yet synced, and nobody waits: sync when the interval is up, unless a flush comes first.
      const wait = Math.max(0, this.#syncEveryMs - (performance.now() - this.#lastSync));
      this.#timer = setTimeout(() => this.#flush(), wait);
      this.#timer.unref();
    }
  }

  #writeGroup(): void {
    const group = this.#pending;
    this.#pending = [];
    const text = Buffer.from(group.join(''));
    let writtenOfGroup = 0;
    try {
      // A write may take part of the group (a full disk); the next one then says why it cannot take the rest.
      while (writtenOfGroup < text.length) writtenOfGroup += writeSync(this.#handle.fd, text, writtenOfGroup);
    } catch (error) {
      this.#writtenBytes += wholeLinesKept(group, writtenOfGroup);
      throw error;
    }
    this.#written += group.length;
    this.#writtenBytes += text.length;
    this.#writeWaiters = settled(this.#writeWaiters, this.#written);
  }

  #sync(): void {
    const upTo = this.#written;
    const upToBytes = this.#writtenBytes;
    this.#lastSync = performance.now();
    try {
      fdatasyncSync(this.#handle.fd);
    } catch (error) {
      // What was written since the last sync may not be on the disk: the file keeps only what is.
      this.#writtenBytes = this.#syncedBytes;
      throw error;
    }
    this.#synced = upTo;
    this.#syncedBytes = upToBytes;
    this.#waiters = settled(this.#waiters, upTo);
  }

  /** The journal cannot be written: whoever waits, and every later append, is told so. */
  #fail(error: unknown): void {
    // A full disk can take part of a group: the file is cut back to what is known whole, so it holds no `sent`
    // entry of a record whose request was then held back (it was not sent, and the next run sends it).
    try {
      ftruncateSync(this.#handle.fd, this.#writtenBytes);
    } catch {
      // The error below already says the journal cannot be written.
    }
    this.#error = new Error(`Cannot write the journal ${this.path}: ${(error as Error).message}`, { cause: error });
    for (const waiter of [...this.#waiters, ...this.#writeWaiters]) waiter.reject(this.#error);
    this.#waiters = [];
    this.#writeWaiters = [];
    this.#pending = [];
  }

  /** Written entries need syncing now: someone waits for them, or the interval is up. */
  #syncDue(): boolean {
    if (this.#written === this.#synced) return false;
    return this.#waiters.length > 0 || performance.now() - this.#lastSync >= this.#syncEveryMs;
  }
}

/** Resolves the waiters whose entries are all among the first `upTo`; returns those still waiting. */
function settled(waiters: Waiter[], upTo: number): Waiter[] {
  const waiting: Waiter[] = [];
  for (const waiter of waiters) {
    if (waiter.upTo <= upTo) waiter.resolve();
    else waiting.push(waiter);
  }
  return waiting;
}

/**
 * Of a group that was written in part (`writtenBytes` of it), the bytes of its whole lines before its first `sent`
 * entry: the entries of what happened (created, failed) are kept, and no `sent` entry whose wait was refused. Every
 * entry is written with its type first (`append`).
 */
function wholeLinesKept(group: string[], writtenBytes: number): number {
  let kept = 0;
  for (const line of group) {
    const bytes = Buffer.byteLength(line);
    if (line.startsWith('{"type":"sent"') || kept + bytes > writtenBytes) break;
    kept += bytes;
  }
  return kept;
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
