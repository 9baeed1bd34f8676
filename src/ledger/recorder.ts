import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LedgerEntry } from './entries.js';
import { ledgerBusyTimeoutMs } from './database.js';
import { Ledger } from './ledger.js';

// Records what a run sends without ever holding its sending back: entries wait in memory and are written in one
// transaction every so often, never waiting for another process that is writing the ledger (they wait for the next
// turn instead). A ledger that cannot be written is told once, and the run goes on.

/** How many entries make a batch worth writing at once, and how long an entry may wait for its batch. */
const batchSize = 500;
const batchEveryMs = 250;

/** Writes a run's entries to its ledger, in batches. */
export class LedgerRecorder {
  readonly file: string;
  readonly #opening: Promise<Ledger | undefined>;
  readonly #onFailure: (error: Error) => void;
  #ledger: Ledger | undefined;
  #queue: LedgerEntry[] = [];
  #timer: NodeJS.Timeout | undefined;
  #failed = false;
  /** The file the ledger was opened as: a write to it once removed (or replaced) would be lost unseen. */
  #inode: number | undefined;

  /** Starts recording to the ledger in `file`; `onFailure` hears, once, why it cannot be written. */
  constructor(file: string, onFailure: (error: Error) => void) {
    this.file = file;
    this.#onFailure = onFailure;
    this.#opening = Ledger.open(file, { create: true }).then(
      (ledger) => {
        this.#inode = inodeOf(file);
        return (this.#ledger = ledger);
      },
      (error: unknown) => {
        this.#fail(error);
        return undefined;
      },
    );
  }

  /** The ledger, once open (undefined if it cannot be). */
  ledger(): Promise<Ledger | undefined> {
    return this.#opening;
  }

  /** Queues an entry; it is written with its batch. */
  add(entry: LedgerEntry): void {
    if (this.#failed) return;
    this.#queue.push(entry);
    if (this.#queue.length >= batchSize) this.#schedule(0);
    else this.#schedule(batchEveryMs);
  }

  /** Changes the ledger at once (the merchant's word on earlier entries); a failure is told as a write's is. */
  async change(work: (ledger: Ledger) => void): Promise<void> {
    const ledger = await this.#opening;
    if (!ledger || this.#failed) return;
    try {
      work(ledger);
    } catch (error) {
      this.#fail(error);
    }
  }

  /**
   * Writes what is queued, waiting for other writers as long as the ledger's busy timeout, then closes the ledger;
   * `whole` runs first when every entry of the run was written.
   */
  async finish(whole?: (ledger: Ledger) => void): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const ledger = await this.#opening;
    if (ledger && !this.#failed) {
      for (const started = Date.now(); !this.#flush(false);) {
        if (Date.now() - started > ledgerBusyTimeoutMs) {
          this.#flush(true);
          break;
        }
        await sleep(20);
      }
    }
    if (ledger && whole && !this.#failed && this.#queue.length === 0) {
      try {
        whole(ledger);
      } catch {
        // Unsaid, the next run of the journal only reads it again.
      }
    }
    ledger?.close();
  }

  #schedule(delayMs: number): void {
    if (this.#timer !== undefined && delayMs > 0) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#ledger) {
        if (!this.#failed) this.#schedule(batchEveryMs);
        return;
      }
      // Another process is writing: this batch waits for the next turn.
      if (!this.#flush(false)) this.#schedule(batchEveryMs);
    }, delayMs);
    this.#timer.unref();
  }

  /** Writes the queue in one transaction; false when another process holds the ledger and `wait` is false. */
  #flush(wait: boolean): boolean {
    if (this.#failed || !this.#ledger || this.#queue.length === 0) return true;
    if (inodeOf(this.file) !== this.#inode) {
      this.#fail(new Error('it was removed while the run was recording'));
      return true;
    }
    try {
      if (!this.#ledger.record(this.#queue, { wait })) return false;
      this.#queue = [];
    } catch (error) {
      this.#fail(error);
    }
    return true;
  }

  #fail(error: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#queue = [];
    this.#onFailure(error instanceof Error ? error : new Error(String(error)));
  }
}

/** The file's inode, or undefined when there is none. */
function inodeOf(file: string): number | undefined {
  return statSync(file, { throwIfNoEntry: false })?.ino;
}
