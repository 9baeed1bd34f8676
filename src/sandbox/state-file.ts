import { existsSync, readFileSync } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import { isDatabaseHeader } from './database.js';
import { parseState, type SandboxState } from './state.js';
import { openStore, type StateStore } from './store.js';

// The sandbox's state file. Earlier versions kept the state as a JSON file; the first sandbox to open the new
// database reads such a file into it, once, and keeps it beside the database under another name.

/** Opens the state in `file` (or in memory), importing the JSON state left by an earlier version when there is one. */
export async function openStateFile(options: {
  file?: string;
  /** Where an earlier version kept this state as JSON, when not in `file` itself. */
  legacyFile?: string;
  create: () => SandboxState;
  /** Told, in a sentence, that a JSON state was imported. */
  notice: (line: string) => void;
}): Promise<StateStore> {
  const { file, create } = options;
  if (file === undefined) return openStore({ create });
  // A JSON state in the file itself moves aside first, under a name every process looks for, so that whichever
  // opens the new database first imports it.
  const pending = `${file}.importing`;
  if (await holdsJsonState(file)) {
    parseState(await readFile(file, 'utf8'), file);
    await rename(file, pending).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  const sources = [
    { from: pending, keptAs: `${file}.imported` },
    ...(options.legacyFile ? [{ from: options.legacyFile, keptAs: `${options.legacyFile}.imported` }] : []),
  ];
  let imported: (typeof sources)[number] | undefined;
  const store = await openStore({
    file,
    create: () => {
      imported = sources.find(({ from }) => existsSync(from));
      return imported ? parseState(readFileSync(imported.from, 'utf8'), imported.from) : create();
    },
  });
  if (imported) {
    const keptAs = existsSync(imported.keptAs) ? `${imported.keptAs}-${Date.now()}` : imported.keptAs;
    await rename(imported.from, keptAs);
    const shownFrom = imported.from === pending ? file : imported.from;
    options.notice(`Imported the sandbox's invoices from ${shownFrom} into ${file}; the JSON file is now ${keptAs}.`);
  }
  return store;
}

/** True when `file` holds text rather than a database: the JSON state of an earlier version. */
async function holdsJsonState(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    return bytesRead > 0 && !isDatabaseHeader(buffer) && buffer.toString('utf8', 0, bytesRead).trimStart() !== '';
  } finally {
    await handle.close();
  }
}
