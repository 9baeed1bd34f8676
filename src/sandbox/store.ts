import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseState, type SandboxState } from './state.js';

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

// Lock attempts back off from 5 ms to 100 ms; a lock older than 10 s is taken as left by a dead process.
const lockOptions = {
  realpath: false,
  stale: 10_000,
  retries: { retries: 300, factor: 1.2, minTimeout: 5, maxTimeout: 100, randomize: true },
};

type WriteFileAtomic = (file: string, data: string) => Promise<void>;
type Lock = (file: string, options: object) => Promise<() => Promise<void>>;

class FileStore implements StateStore {
  readonly #file: string;
  readonly #create: () => SandboxState;
  #cache: SandboxState | undefined;
  /** Identity of the file version in the cache: inode, size and mtime (an atomic write makes a new inode). */
  #stamp = '';
  /** Changes of this process run one at a time, so they never compete with each other for the file lock. */
  #queue: Promise<unknown> = Promise.resolve();
  #lock!: Lock;
  #write!: WriteFileAtomic;

  constructor(file: string, create: () => SandboxState) {
    this.#file = file;
    this.#create = create;
  }

  async init(): Promise<void> {
    // Loaded here rather than at the top so an in-memory sandbox never pays for them.
    const [{ default: lockfile }, { default: writeFileAtomic }] = await Promise.all([
      import('proper-lockfile'),
      import('write-file-atomic'),
    ]);
    this.#lock = lockfile.lock as Lock;
    this.#write = (file, data) => writeFileAtomic(file, data);
    await mkdir(dirname(this.#file), { recursive: true });
    await this.#locked(async () => {
      const { state, text } = await this.#readFile();
      if (text.trim() === '') await this.#save(this.#create());
      else this.#cache = state;
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
    const run = this.#queue.then(() =>
      this.#locked(async () => {
        const { state } = await this.#readFile();
        // A state file deleted while the sandbox runs is written again from what this process last saw.
        const current = state ?? this.#cache ?? this.#create();
        const before = JSON.stringify(current);
        const draft = structuredClone(current);
        const result = mutate(draft);
        if (JSON.stringify(draft) !== before || !state) await this.#save(draft);
        return result;
      }),
    );
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #locked<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.#lock(this.#file, {
      ...lockOptions,
      lockfilePath: `${this.#file}.lock`,
      // The default throws from a timer, which would crash the server; a late release is harmless here.
      onCompromised: () => undefined,
    });
    try {
      return await work();
    } finally {
      await release().catch(() => undefined);
    }
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
    this.#stamp = stamp;
    return { state, text };
  }

  async #save(state: SandboxState): Promise<void> {
    await this.#write(this.#file, `${JSON.stringify(state, null, 2)}\n`);
    this.#cache = state;
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
