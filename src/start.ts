import { join } from 'node:path';
import { cacheFolder } from './config/paths.js';
import { helpFromCache, printToStdout } from './help-cache.js';

// What bin/einvoice.js runs. Help and the version printed into a pipe come from the build's help file, without
// commander and the command tree (src/help-cache.ts). Anything else turns on Node's compile cache and runs the CLI:
// the cache must be on before the CLI's modules load, so this small module loads them itself.

/** Runs `einvoice` with `argv` and sets the process's exit code from what the CLI returns. */
export async function start(argv: string[]): Promise<void> {
  const cached = mayBeTerminal() ? undefined : helpFromCache(argv.slice(2), new URL('help.json', import.meta.url));
  if (cached !== undefined) {
    printToStdout(cached);
    return;
  }
  useCompileCache();
  // The CLI is one CommonJS bundle (scripts/build.mjs says why), loaded as such.
  const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);
  const { main } = require('./cli.cjs') as typeof import('./index.js');
  process.exitCode = await main(argv);
}

/**
 * Node's compile cache, in the merchant's own cache folder: Node's default is the system's temporary folder, which
 * other users can write to, and code read from the cache runs as einvoice. Node itself honours
 * NODE_DISABLE_COMPILE_CACHE=1 (no cache) and NODE_COMPILE_CACHE=DIR (that folder instead).
 */
function useCompileCache(): void {
  if (process.env.NODE_COMPILE_CACHE || process.env.NODE_DISABLE_COMPILE_CACHE) return;
  try {
    process.getBuiltinModule('node:module').enableCompileCache(join(cacheFolder(process.env), 'compile'));
  } catch {
    // No home folder to keep a cache in: the CLI runs without one.
  }
}

/**
 * True when standard output may be a terminal, where commander renders help to the terminal's width. A terminal is a
 * character device: asked so rather than by process.stdout.isTTY or tty.isatty, which load Node's net module.
 * /dev/null, the other character device, gets the same help rendered live.
 */
function mayBeTerminal(): boolean {
  try {
    return process.getBuiltinModule('node:fs').fstatSync(1).isCharacterDevice();
  } catch {
    return true;
  }
}
