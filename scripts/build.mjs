// Builds dist/: one esbuild bundle per entry (the CLI and the library), split into chunks so each command's
// dependencies load only when that command runs, plus tsc's type declarations for the library.
//
// Bundling cuts start-up: resolving and reading hundreds of small modules (zod alone is over 200) costs more than
// parsing one file. `npm run bench` shows the figures.
import { execFileSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: { index: 'src/index.ts', lib: 'src/lib.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.17',
  // Chunks stay beside the entries: src/version.ts finds package.json at ../package.json from any of them.
  chunkNames: '[name]-[hash]',
  // CommonJS packages that read __filename (cosmiconfig's synchronous loader, write-file-atomic) stay plain
  // dependencies: a bundled ES module has no __filename. typescript and jiti load only for TypeScript profile
  // files, which einvoice does not search for.
  external: ['cosmiconfig', 'typescript', 'jiti', 'proper-lockfile', 'write-file-atomic'],
  // Bundled CommonJS dependencies call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __einvoiceRequire } from 'node:module'; const require = __einvoiceRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
execFileSync(
  process.execPath,
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--emitDeclarationOnly'],
  {
    stdio: 'inherit',
  },
);
// The test setup rebuilds only when a source is newer than this stamp.
await writeFile('dist/.built', `${new Date().toISOString()}\n`);
