import { watch, type FSWatcher } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { basename, dirname } from 'node:path';
import type { StateStore } from '../store.js';

/** Changes that come within this many milliseconds of each other make one event: a bulk run makes thousands. */
const burstMs = 20;

/**
 * Tells the open dashboards, as server-sent events, that the state has changed: through this sandbox, or through
 * another process sharing its state file (a CLI command in another terminal), noticed by watching the file's folder.
 * Each event only says "read again": the page then fetches the whole view, so a missed event costs nothing.
 */
export class ChangeFeed {
  readonly #pages = new Set<ServerResponse>();
  readonly #watcher: FSWatcher | undefined;
  #version = 0;
  #pending: NodeJS.Timeout | undefined;

  constructor(stateFile: string | undefined) {
    if (stateFile === undefined) return;
    // The folder: a commit writes the database's -wal file, and a checkpoint the database itself.
    const names = new Set([basename(stateFile), `${basename(stateFile)}-wal`]);
    this.#watcher = watch(dirname(stateFile), (_event, changed) => {
      if (changed !== null && names.has(changed)) this.changed();
    });
    this.#watcher.on('error', () => this.#watcher?.close());
  }

  /** The store, telling this feed of every change made through it. */
  observe(store: StateStore): StateStore {
    return {
      read: (work) => store.read(work),
      export: (write) => store.export(write),
      write: (work) => {
        try {
          return store.write(work);
        } finally {
          this.changed();
        }
      },
      // The request history alone: nothing the page shows.
      tryWrite: (work) => store.tryWrite(work),
      close: () => store.close(),
    };
  }

  /** Notes that the state may have changed. */
  changed(): void {
    if (this.#pending || this.#pages.size === 0) return;
    this.#pending = setTimeout(() => {
      this.#pending = undefined;
      this.#version += 1;
      for (const page of this.#pages) page.write(`id: ${this.#version}\nevent: change\ndata: ${this.#version}\n\n`);
    }, burstMs);
  }

  /** Keeps `res` open as an event stream until the page goes away. */
  subscribe(res: ServerResponse): void {
    this.#pages.add(res);
    res.on('close', () => this.#pages.delete(res));
    // A page that loses the stream tries again after a second, and reads the whole view when it is back.
    res.write('retry: 1000\n\n');
  }

  /** Ends every stream and stops watching, so the server can close. */
  close(): void {
    clearTimeout(this.#pending);
    this.#watcher?.close();
    for (const page of this.#pages) page.destroy();
    this.#pages.clear();
  }
}
