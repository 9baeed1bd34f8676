import { mkdir, readdir, readFile, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseState, type SandboxState } from './state.js';
import { takeLock } from '../file-lock.js';

/**
 * Holds the sandbox's state in memory, or in a JSON file that several sandbox processes may share. Every change
 * runs under a cross-process lock on a state freshly read from the file, and is written atomically, so no process
 * loses another's writes.
 */
export interface StateStore {
  /** The current state, re-read when another process has changed the file. Treat it as read-only. */
  read(): Promise<SandboxState>;
  /**
   * Runs `mutate` on the freshest state and keeps the result. A mutation checks everything before it changes
   * anything (as every handler in invoices.ts does), so one that throws leaves the state as it was.
   */
  update<T>(mutate: (draft: SandboxState) => T): Promise<T>;
}

/** Opens the store: in memory, or backed by `file` (created, with `create()`, when missing or empty). */
export async function openStore(options: { file?: string; create: () => SandboxState }): Promise<StateStore> {
  if (!options.file) return new MemoryStore(options.create());
  const store = new FileStore(options.file, options.create);
  await store.init();
  return store;
}

class MemoryStore implements StateStore {
  #state: SandboxState;

  constructor(state: SandboxState) {
    this.#state = state;
  }

  async read(): Promise<SandboxState> {
    return this.#state;
  }

  async update<T>(mutate: (draft: SandboxState) => T): Promise<T> {
    // In place: copying the whole state on every write made a run of thousands of creates quadratic.
    return mutate(this.#state);
  }
}

/** How long a change waits for another process to let go of the state file before it fails. */
const lockWaitMs = 30_000;

interface PendingChange {
  mutate: (draft: SandboxState) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The state file's text: indented, so that a merchant can read it. */
function serializeState(state: SandboxState): string {
  return `${JSON.stringify(state, null, 2)}\n`;
}

type WriteFileAtomic = (file: string, data: string) => Promise<void>;

class FileStore implements StateStore {
  readonly #file: string;
  readonly #create: () => SandboxState;
  #cache: SandboxState | undefined;
  /** Identity of the file version in the cache: inode, size and mtime (an atomic write makes a new inode). */
  #stamp = '';
  /** The file's text as of `#stamp`. */
  #text = '';
  /** Changes of this process waiting for the commit under way; they never compete with each other for the lock. */
  #pending: PendingChange[] = [];
  #committing = false;
  #write!: WriteFileAtomic;

  constructor(file: string, create: () => SandboxState) {
    this.#file = file;
    this.#create = create;
  }

  async init(): Promise<void> {
    // Loaded here rather than at the top so an in-memory sandbox never pays for it.
    const { default: writeFileAtomic } = await import('write-file-atomic');
    this.#write = (file, data) => writeFileAtomic(file, data, { mode: 0o600 });
    await mkdir(dirname(this.#file), { recursive: true, mode: 0o700 });
    await this.#locked(async () => {
      await this.#removeTornWrites();
      const { state, text } = await this.#readFile();
      if (text.trim() === '') {
        const state = this.#create();
        await this.#save(state, serializeState(state));
      } else this.#cache = state;
    });
  }

  async read(): Promise<SandboxState> {
    const stamp = await this.#currentStamp();
    if (stamp !== undefined && stamp !== this.#stamp) {
      const { state } = await this.#readFile();
      if (state) this.#cache = state;
    }
    if (!this.#cache) throw new Error(`The sandbox state file ${this.#file} has gone`);
    return this.#cache;
  }

  update<T>(mutate: (draft: SandboxState) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ mutate, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#committing) void this.#commit();
    });
  }

  /**
   * Applies the changes waiting, in order, under one lock, one read and one write of the file (a group commit):
   * with one read and write per change, a bulk run of thousands of creates spent its time re-reading and
   * re-writing the whole file.
   */
  async #commit(): Promise<void> {
    this.#committing = true;
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0);
      try {
        const outcomes = await this.#locked(async () => {
          const { state, text } = await this.#latest();
          // A state file deleted while the sandbox runs is written again from what this process last saw.
          const draft = state ?? (this.#cache ? structuredClone(this.#cache) : this.#create());
          // A change that throws has changed nothing (see StateStore.update), so the others still apply.
          const settled = batch.map(({ mutate }) => {
            try {
              return { value: mutate(draft) };
            } catch (error) {
              return { error };
            }
          });
          const next = serializeState(draft);
          if (next !== text) await this.#save(draft, next);
          return settled;
        });
        outcomes.forEach((outcome, index) => {
          const { resolve, reject } = batch[index] as PendingChange;
          if ('error' in outcome) reject(outcome.error);
          else resolve(outcome.value);
        });
      } catch (error) {
        // The changes may be in the cache but not in the file: the next read goes back to the file.
        this.#stamp = '';
        for (const { reject } of batch) reject(error);
      }
    }
    this.#committing = false;
  }

  /**
   * Removes what a process killed in the middle of writing the state left beside it: write-file-atomic's temporary
   * file (`sandbox.json.<number>`), empty or half written, never renamed into place. Every write happens under the
   * lock held here, so none of them is being written now.
   */
  async #removeTornWrites(): Promise<void> {
    const folder = dirname(this.#file);
    const prefix = `${basename(this.#file)}.`;
    const names = await readdir(folder).catch(() => [] as string[]);
    const torn = names.filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)));
    await Promise.all(torn.map((name) => unlink(join(folder, name)).catch(() => undefined)));
  }

  async #locked<T>(work: () => Promise<T>): Promise<T> {
    // A process killed while it held the lock leaves it behind; the next change takes it over at once.
    const release = await takeLock(`${this.#file}.lock`, { waitMs: lockWaitMs });
    try {
      return await work();
    } finally {
      await release().catch(() => undefined);
    }
  }

  /** The file's state: the one in memory when the file is as this process last read or wrote it, else read again. */
  async #latest(): Promise<{ state: SandboxState | undefined; text: string }> {
    const stamp = await this.#currentStamp();
    if (this.#cache && stamp !== undefined && stamp === this.#stamp) return { state: this.#cache, text: this.#text };
    return this.#readFile();
  }

  async #readFile(): Promise<{ state: SandboxState | undefined; text: string }> {
    const stamp = await this.#currentStamp();
    if (stamp === undefined) return { state: undefined, text: '' };
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: undefined, text: '' };
      throw error;
    }
    if (text.trim() === '') return { state: undefined, text };
    const state = parseState(text, this.#file);
    this.#cache = state;
    this.#text = text;
    this.#stamp = stamp;
    return { state, text };
  }

  async #save(state: SandboxState, text: string): Promise<void> {
    await this.#write(this.#file, text);
    this.#cache = state;
    this.#text = text;
    this.#stamp = (await this.#currentStamp()) ?? '';
  }

  async #currentStamp(): Promise<string | undefined> {
    try {
      const info = await stat(this.#file);
      return `${info.ino}:${info.size}:${info.mtimeMs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}
