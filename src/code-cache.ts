import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

// Node 20 compiles every module from its source at each start; for a CLI that loads got, zod and cosmiconfig, that
// is most of the start-up. V8 can instead take the code it compiled in an earlier run (its code cache), which Node
// 22 offers as `module.enableCompileCache()`. On Node 20 the only way in is `vm.Script`'s `cachedData`, for a
// CommonJS file: so the build bundles the CLI into one (dist/cli.cjs) and this module loads it.

/** How the code cache served a load. */
export type CodeCacheState = 'used' | 'missing' | 'rejected' | 'off';

export interface CompiledModule<T> {
  exports: T;
  state: CodeCacheState;
  /**
   * Writes V8's code for the bundle, with every function this run compiled, when the cache was missing or refused.
   * Call it once the work is done, so that the cache holds what a run needs; it never throws.
   */
  saveCache(): void;
}

/**
 * Loads the CommonJS file `file` as `require` would, compiling it with the code cache in `cacheFile` (none when
 * undefined). The cache file's name must change whenever the file does: V8 checks only the length of the source.
 */
export function requireWithCodeCache<T>(file: string, cacheFile: string | undefined): CompiledModule<T> {
  // The build makes the bundle ASCII (esbuild escapes the rest), so Latin-1 reads it exactly, and faster than UTF-8.
  const source = readFileSync(file, 'latin1');
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // No cache yet: this run writes it.
    }
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    // No import() in this code (Node 20 offers it to a vm script only as an experiment, with a warning): the bundle
    // imports ES modules through the launcher (src/es-module.ts).
  });
  const state: CodeCacheState = !cacheFile
    ? 'off'
    : !cachedData
      ? 'missing'
      : script.cachedDataRejected
        ? 'rejected'
        : 'used';
  const module = { exports: {} as T };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    state,
    saveCache() {
      if (!cacheFile || state === 'used') return;
      try {
        writeAtomically(cacheFile, script.createCachedData());
        removeOldBuilds(cacheFile);
      } catch {
        // A cache is only ever a saving: a folder that cannot be written means the next run compiles again.
      }
    },
  };
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

/** Writes by renaming a whole file into place, so that a concurrent run reads the old cache or the new one. */
function writeAtomically(file: string, data: Buffer): void {
  const folder = dirname(file);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, data, { mode: 0o600 });
  renameSync(partial, file);
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
