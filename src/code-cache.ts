import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

// Node 20 compiles every module from its source at each start; for a CLI that loads got, zod and cosmiconfig, that
// is most of the start-up. V8 can instead take the code it compiled in an earlier run (its code cache), which Node
// 22 offers as `module.enableCompileCache()`. On Node 20 the only way in is `vm.Script`'s `cachedData`, for a
// CommonJS file: so the build bundles the CLI into one (dist/cli.cjs) and this module loads it.

/** How the code cache served a load. */
export type CodeCacheState =
  /** Compiled from the cache. */
  | 'used'
  /** No cache yet: compiled from the source; `saveCache` writes one. */
  | 'missing'
  /** V8 refused the cache (another Node.js, other flags, a damaged file): compiled from the source, rewritten. */
  | 'rejected'
  /** A cache file or folder another user could have written, or of another build: neither read nor written. */
  | 'untrusted'
  /** No cache asked for. */
  | 'off';

/** Where a bundle's code cache is, and which build of the bundle it is for. */
export interface CodeCache {
  file: string;
  /** The build's id: the bundle's first line names it, and so does every cache file written for it. */
  build: string;
}

export interface CompiledModule<T> {
  exports: T;
  state: CodeCacheState;
  /**
   * Writes V8's code for the bundle, with every function this run compiled, when the cache was missing or refused.
   * Call it once the work is done, so that the cache holds what a run needs; it never throws.
   */
  saveCache(): void;
}

/** The first line of a bundle built as `build`, which the build writes. */
export const bundleHeader = (build: string) => `// einvoice build ${build}\n`;
/** The first bytes of a cache file written for `build`. */
const cacheHeader = (build: string) => Buffer.from(`einvoice code cache ${build}\n`, 'latin1');

/**
 * Loads the CommonJS file `file` as `require` would, compiling it with its code cache, if `cache` names one that
 * this user wrote for this very build. V8 checks a cache against the length of the source only, and runs the code in
 * it: a cache made from another bundle of the same length, or planted by someone else, would run their code.
 */
export function requireWithCodeCache<T>(file: string, cache: CodeCache | undefined): CompiledModule<T> {
  // The build makes the bundle ASCII (esbuild escapes the rest), so Latin-1 reads it exactly, and faster than UTF-8.
  const source = readFileSync(file, 'latin1');
  const read =
    cache && source.startsWith(bundleHeader(cache.build)) && trustedFolders(cache.file)
      ? readTrusted(cache.file, cacheHeader(cache.build))
      : 'untrusted';
  const cachedData = read instanceof Buffer ? read : undefined;
  let state: CodeCacheState = !cache ? 'off' : read === 'untrusted' ? 'untrusted' : 'missing';
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    // No import() in this code (Node 20 offers it to a vm script only as an experiment, with a warning): the bundle
    // imports ES modules through the launcher (src/es-module.ts).
  });
  if (cachedData) state = script.cachedDataRejected ? 'rejected' : 'used';
  const module = { exports: {} as T };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    state,
    saveCache() {
      if (!cache || (state !== 'missing' && state !== 'rejected')) return;
      try {
        writeAtomically(cache.file, Buffer.concat([cacheHeader(cache.build), script.createCachedData()]));
        removeOldBuilds(cache.file);
      } catch {
        // A cache is only ever a saving: a folder that cannot be written means the next run compiles again.
      }
    },
  };
}

/** True when a file or folder of this user's can be written by this user only (always on Windows, per-user). */
function ownedAndPrivate(stats: Stats): boolean {
  if (process.getuid === undefined) return true;
  return stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
}

/** True when the cache's folders are this user's own, or not made yet (they are made so). */
function trustedFolders(cacheFile: string): boolean {
  for (const folder of [dirname(dirname(cacheFile)), dirname(cacheFile)]) {
    let stats: Stats;
    try {
      stats = statSync(folder);
    } catch {
      return true;
    }
    if (!ownedAndPrivate(stats)) return false;
  }
  return true;
}

/** The cache in `file` less its header; undefined when there is none, or it is not this build's. */
function readTrusted(file: string, header: Buffer): Buffer | undefined | 'untrusted' {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    // Asked of the file opened, not of the name: what is read is what was checked.
    if (!ownedAndPrivate(fstatSync(descriptor))) return 'untrusted';
    const data = readFileSync(descriptor);
    return data.subarray(0, header.length).equals(header) ? data.subarray(header.length) : 'untrusted';
  } finally {
    closeSync(descriptor);
  }
}

/** How many builds keep their caches: two versions run in turn (a global install and npx) each keep theirs. */
const buildsKept = 3;

/** Removes the caches of all but the builds written last, once this one has written its own. */
function removeOldBuilds(cacheFile: string): void {
  const folder = dirname(dirname(cacheFile));
  const builds = readdirSync(folder)
    .map((name) => ({ name, written: statSync(join(folder, name)).mtimeMs }))
    .sort((a, b) => b.written - a.written);
  for (const { name } of builds.slice(buildsKept)) rmSync(join(folder, name), { recursive: true, force: true });
}

/**
 * Writes by renaming a whole file into place, so that a concurrent run reads the old cache or the new one. A file a
 * killed run left half written (an hour old) goes.
 */
function writeAtomically(file: string, data: Buffer): void {
  const folder = dirname(file);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, data, { mode: 0o600 });
  renameSync(partial, file);
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (name.endsWith('.partial') && Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { force: true });
  }
}

/**
 * The cache file of one command of one build: `<folder>/<build>/<node>-<arch>-<command>.bin`. Each command has its
 * own, holding the functions that command runs and no others.
 */
export function codeCacheFile(folder: string, build: string, command: string): string {
  return join(folder, build, `${process.version}-${process.arch}-${command.replace(/ /g, '-')}.bin`);
}

/**
 * The command `args` run, named by its path ("stats", "create single"), or "other": the first word that is not an
 * option or an option's value (`--env sandbox`), and the next one when that makes a subcommand. Only the cache's
 * file name depends on it.
 */
export function commandOf(
  args: readonly string[],
  commandPaths: readonly string[],
  optionsWithValue: readonly string[],
): string {
  const paths = new Set(commandPaths);
  let index = 0;
  while (index < args.length && (args[index] as string).startsWith('-')) {
    index += optionsWithValue.includes(args[index] as string) ? 2 : 1;
  }
  const command = args[index];
  if (command === undefined || !paths.has(command)) return 'other';
  const sub = `${command} ${args[index + 1]}`;
  return paths.has(sub) ? sub : command;
}
