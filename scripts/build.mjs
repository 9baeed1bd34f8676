// Builds dist/: the CLI (start.js, which bin/einvoice.js runs, and index.js) and the programmatic API (lib.js), as ES
// modules split into chunks that each command loads when it runs, with tsc's type declarations; and help.json, every
// command's help.
//
// Bundling cuts start-up: resolving and reading hundreds of small modules (zod alone is over 200) costs more than
// reading a few larger files, which Node's compile cache then keeps compiled. `npm run bench` shows the figures.
import { execFileSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

await rm('dist', { recursive: true, force: true });
const common = { bundle: true, format: 'esm', platform: 'node', target: 'node22', logLevel: 'warning' };

// What bin/ runs, one file that prints help from help.json alone and else imports the CLI (./index.js, not bundled).
await build({
  ...common,
  entryPoints: { start: 'src/start.ts' },
  outdir: 'dist',
  plugins: [
    {
      name: 'cli-stays-apart',
      setup: (build) => build.onResolve({ filter: /^\.\/index\.js$/ }, ({ path }) => ({ path, external: true })),
    },
  ],
});

await build({
  ...common,
  entryPoints: { index: 'src/index.ts', lib: 'src/lib.ts', 'help-render': 'src/help-render.ts' },
  outdir: 'dist',
  splitting: true,
  // Chunks stay beside the entries: src/version.ts finds package.json at ../package.json from any of them.
  chunkNames: '[name]-[hash]',
  // typescript and jiti load only for TypeScript profile files, which einvoice does not search for. CommonJS packages
  // that read __filename (cosmiconfig's synchronous loader, write-file-atomic) stay plain dependencies: a bundled ES
  // module has no __filename.
  external: ['typescript', 'jiti', 'cosmiconfig', 'proper-lockfile', 'write-file-atomic'],
  // Bundled CommonJS dependencies call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __einvoiceRequire } from 'node:module'; const require = __einvoiceRequire(import.meta.url);",
  },
  // Whitespace and syntax are minified (not names, which stay readable in a stack trace): less to read at start-up.
  minifyWhitespace: true,
  minifySyntax: true,
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
