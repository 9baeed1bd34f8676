// Builds dist/:
// - dist/cli.cjs: the CLI, one CommonJS bundle, which dist/launch.cjs compiles with V8's code cache (src/code-cache.ts);
// - dist/launch.cjs: what bin/ runs, and dist/help.json: every command's help, rendered now by commander;
// - dist/lib.js and its chunks: the programmatic API, an ES module, with tsc's type declarations.
//
// Bundling cuts start-up: resolving and reading hundreds of small modules (zod alone is over 200) costs more than
// parsing one file, and a code cache needs one CommonJS file. `npm run bench` shows the figures.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { patchDependencies } from './dependency-patches.mjs';

await rm('dist', { recursive: true, force: true });
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.17',
  // typescript and jiti load only for TypeScript profile files, which einvoice does not search for.
  external: ['typescript', 'jiti'],
  plugins: [patchDependencies()],
  logLevel: 'warning',
};
/** What runs as CommonJS: the CLI and what bin/ loads. */
const commonjs = { ...common, outdir: 'dist', outExtension: { '.js': '.cjs' }, format: 'cjs' };

// The CLI. Its commands' modules are still evaluated only when their command runs: esbuild turns each import() of
// a command into a function that evaluates that part of the bundle. Whitespace and syntax are minified (not
// names): a smaller file is faster to read and to check against its code cache.
await build({
  ...commonjs,
  entryPoints: { cli: 'src/index.ts' },
  // The CLI holds every dependency edited: each edit must have been made.
  plugins: [patchDependencies({ everyFile: true })],
  minifyWhitespace: true,
  minifySyntax: true,
  // src/version.ts finds package.json and the example profile file from the module's URL.
  define: { 'import.meta.url': '__einvoiceModuleUrl' },
  banner: { js: "const __einvoiceModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
const cliBundle = await readFile('dist/cli.cjs');
// src/code-cache.ts reads the bundle as Latin-1, which is right for ASCII only: esbuild's default (charset: 'ascii').
if (cliBundle.some((byte) => byte > 0x7f))
  throw new Error('dist/cli.cjs is not ASCII: src/code-cache.ts reads it as Latin-1');
// The bundle names its build on its first line (src/code-cache.ts, bundleHeader), which the launcher checks before it
// trusts a code cache with it.
const cliId = createHash('sha256').update(cliBundle).digest('hex').slice(0, 16);
await writeFile('dist/cli.cjs', `// einvoice build ${cliId}\n${cliBundle.toString('latin1')}`, 'latin1');

// The programmatic API, as an ES module split into chunks.
const esm = {
  ...common,
  outdir: 'dist',
  splitting: true,
  format: 'esm',
  // Chunks stay beside the entries: src/version.ts finds package.json at ../package.json from any of them.
  chunkNames: '[name]-[hash]',
  // CommonJS packages that read __filename (cosmiconfig's synchronous loader, write-file-atomic) stay plain
  // dependencies: a bundled ES module has no __filename.
  external: [...common.external, 'cosmiconfig', 'proper-lockfile', 'write-file-atomic'],
  // Bundled CommonJS dependencies call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __einvoiceRequire } from 'node:module'; const require = __einvoiceRequire(import.meta.url);",
  },
};
await build({ ...esm, entryPoints: { lib: 'src/lib.ts' } });

// Every command's help, rendered now by commander so that bin/ can print it without loading the command tree.
await build({ ...esm, entryPoints: { 'help-render': 'src/help-render.ts' }, splitting: false });
const { renderHelpCache, rootOptionsWithValue } = await import(new URL('../dist/help-render.js', import.meta.url).href);
const helpCache = renderHelpCache();
await writeFile('dist/help.json', JSON.stringify(helpCache));
await rm('dist/help-render.js');

// What bin/ runs, told which CLI bundle it starts and the names of its commands.
await build({
  ...commonjs,
  entryPoints: { launch: 'src/launch.ts' },
  define: {
    EINVOICE_BUILD: JSON.stringify({
      id: cliId,
      commands: Object.keys(helpCache.helps).filter(Boolean),
      optionsWithValue: rootOptionsWithValue(),
    }),
  },
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
