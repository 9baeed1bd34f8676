// Builds dist/:
// - dist/start.js: what bin/einvoice.js runs; prints help from dist/help.json, or runs the CLI (src/start.ts);
// - dist/cli.cjs: the CLI, one CommonJS bundle (see below);
// - dist/help.json: every command's help, rendered now by commander;
// - dist/lib.js and its chunks: the programmatic API, ES modules, with tsc's type declarations.
//
// Bundling cuts start-up: resolving and reading hundreds of small modules (zod alone is over 200) costs more than
// reading one file, which Node's compile cache then keeps compiled. `npm run bench` shows the figures.
import { execFileSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

await rm('dist', { recursive: true, force: true });
const common = { bundle: true, platform: 'node', target: 'node22', logLevel: 'warning' };

// What bin/ runs: one small ES module that reads help.json, and else loads the CLI (./cli.cjs, not bundled in it).
await build({
  ...common,
  entryPoints: { start: 'src/start.ts' },
  outdir: 'dist',
  format: 'esm',
  external: ['./cli.cjs'],
});

// The CLI, as CommonJS. An ES import of a Node built-in builds a namespace of all its exports, and on Node 24
// `node:http`'s namespace loads undici, crypto, TLS, HTTP/2 and zlib, some 25 ms that no einvoice command needs;
// CommonJS reads a built-in's exports only when the code uses them. Commands' modules are still evaluated only when
// their command runs: esbuild turns each import() of a command into a function that evaluates that part of the
// bundle. Whitespace and syntax are minified (not names, which stay readable in a stack trace): less to read.
await build({
  ...common,
  entryPoints: { cli: 'src/index.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // typescript and jiti load only for TypeScript profile files, which einvoice does not search for.
  external: ['typescript', 'jiti'],
  minifyWhitespace: true,
  minifySyntax: true,
  // src/version.ts and src/package-files.ts find package.json and the shipped files from the module's URL.
  define: { 'import.meta.url': '__einvoiceModuleUrl' },
  banner: { js: "const __einvoiceModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

// The programmatic API, and the help renderer run below, as ES modules split into chunks.
await build({
  ...common,
  entryPoints: { lib: 'src/lib.ts', 'help-render': 'src/help-render.ts' },
  outdir: 'dist',
  format: 'esm',
  splitting: true,
  // Chunks stay beside the entries: src/version.ts finds package.json at ../package.json from any of them.
  chunkNames: '[name]-[hash]',
  // CommonJS packages that read __filename (cosmiconfig's synchronous loader, write-file-atomic) stay plain
  // dependencies: a bundled ES module has no __filename.
  external: ['typescript', 'jiti', 'cosmiconfig', 'write-file-atomic'],
  // Bundled CommonJS dependencies call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __einvoiceRequire } from 'node:module'; const require = __einvoiceRequire(import.meta.url);",
  },
});

// Every command's help, rendered now by commander so that bin/ can print it without loading the command tree
// (src/help-cache.ts).
const { renderHelpCache } = await import(new URL('../dist/help-render.js', import.meta.url).href);
await writeFile('dist/help.json', JSON.stringify(renderHelpCache()));
await rm('dist/help-render.js');

execFileSync(
  process.execPath,
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--emitDeclarationOnly'],
  {
    stdio: 'inherit',
  },
);
// The test setup rebuilds only when a source is newer than this stamp.
await writeFile('dist/.built', `${new Date().toISOString()}\n`);
