import { fstatSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeCache } from './code-cache.js';
import type { ModuleImporter } from './es-module.js';
import { helpFromCache, printToStdout } from './help-cache.js';

// What bin/einvoice.cjs runs: help and the version from the build's cache when printed into a pipe, else the CLI
// bundle, compiled with V8's code cache. Built as CommonJS like bin/ itself: Node starts its ES module loader for
// the first ES module a process runs, some 5 ms, which neither needs.

/** What the build knows of the CLI bundle it made beside this file. */
interface BuildFacts {
  /** Changes whenever dist/cli.cjs does: it names the code cache's folder. */
  id: string;
  /** Every command path ("stats", "create single"). */
  commands: string[];
  /** The root's options that take a value, by every name (`-e`, `--env`). */
  optionsWithValue: string[];
}

declare const EINVOICE_BUILD: BuildFacts;

/** What the CLI bundle exports (src/index.ts). */
interface Cli {
  main(argv: string[]): Promise<number>;
  useModuleImporter(importModule: ModuleImporter): void;
}

/** Runs `einvoice` with the process's arguments. */
export function launch(argv: string[]): void {
  const args = argv.slice(2);
  const cached = mayBeTerminal() ? undefined : helpFromCache(args, join(__dirname, 'help.json'));
  if (cached !== undefined) {
    printToStdout(cached);
    return;
  }
  void runCli(argv);
}

/** Runs the CLI bundle, with the code cache of the command `argv` names. */
async function runCli(argv: string[]): Promise<void> {
  // Loaded here, so that the help above loads nothing it does not print with.
  const { codeCacheFile, commandOf, requireWithCodeCache } = await import('./code-cache.js');
  const { cacheFolder } = await import('./config/paths.js');
  const cache = (): CodeCache | undefined => {
    // NODE_DISABLE_COMPILE_CACHE: the variable Node 22 reads for its own compile cache.
    if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
    try {
      const command = commandOf(argv.slice(2), EINVOICE_BUILD.commands, EINVOICE_BUILD.optionsWithValue);
      const file = codeCacheFile(join(cacheFolder(process.env), 'code'), EINVOICE_BUILD.id, command);
      return { file, build: EINVOICE_BUILD.id };
    } catch {
      // No home folder to find the cache in: the CLI runs without one.
      return undefined;
    }
  };
  const cli = requireWithCodeCache<Cli>(join(__dirname, 'cli.cjs'), cache());
  cli.exports.useModuleImporter((url) => import(url));
  process.exitCode = await cli.exports.main(argv);
  cli.saveCache();
}

/**
 * True when standard output may be a terminal, where commander renders help to the terminal's width. A terminal is a
 * character device: asked so rather than by process.stdout.isTTY or tty.isatty, which load Node's net module.
 * /dev/null, the other character device, gets the same help rendered live.
 */
function mayBeTerminal(): boolean {
  try {
    return fstatSync(1).isCharacterDevice();
  } catch {
    return true;
  }
}
