import { join } from 'node:path';
import { cacheFolder } from './config/paths.js';
import { sizeHeapFor } from './heap-size.js';

// What bin/einvoice.cjs runs: Node's compile cache must be on before the CLI's modules load, so this small module
// turns it on and then loads them itself.

/** Runs `einvoice` with `argv` and sets the process's exit code from what the CLI returns. */
export async function start(argv: string[]): Promise<void> {
  const tooOld = unsupportedNode(process.versions.node);
  if (tooOld) {
    process.stderr.write(`✖ ${tooOld}\n`);
    process.exitCode = 1;
    return;
  }
  useCompileCache();
  // The CLI is one CommonJS bundle (scripts/build.mjs says why), loaded as such.
  const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);
  const { main } = require('./cli.cjs') as typeof import('./index.js');
  sizeHeapFor(argv);
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
 * Why this Node.js cannot run einvoice, or undefined when it can. Below 22 the built-in sandbox's database
 * (node:sqlite) and more are missing, and every command would fail as an unexpected error.
 */
export function unsupportedNode(version: string): string | undefined {
  const major = Number(version.split('.')[0]);
  if (major >= 22) return undefined;
  return `einvoice needs Node.js 22.22.2 or later (24 recommended); this is Node.js ${version}. Install a newer Node.js, or the standalone executable, which carries its own.`;
}
