// Builds dist/: one esbuild bundle per entry (the CLI and the library), split into chunks so each command's
// dependencies load only when that command runs, plus tsc's type declarations for the library.
//
// Bundling cuts start-up: resolving and reading hundreds of small modules (zod alone is over 200) costs more than
// parsing one file. `npm run bench` shows the figures.
import { execFileSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

/**
 * Work that got's dependencies do the moment they load, which every command that talks to the service would pay for
 * and none needs: each is deferred until first use. The build fails if a dependency's text has changed, so that a
 * new version is looked at rather than silently left slow.
 * - http2-wrapper builds a TLS socket only to read a class off it (for HTTP/2 proxies, which einvoice never uses):
 *   that makes a TLS context and parses the root certificates, 20 to 35 ms.
 * - @sindresorhus/is makes two Intl.ListFormat objects for its error messages: the first Intl object of a process
 *   loads ICU's locale data, some 15 ms.
 */
const deferredAtLoad = [
  {
    file: /http2-wrapper[\\/]source[\\/]utils[\\/]js-stream-socket\.js$/,
    from: 'const JSStreamSocket = (new tls.TLSSocket(new stream.PassThrough()))._handle._parentWrap.constructor;\n\nmodule.exports = JSStreamSocket;',
    to: `let JSStreamSocket;
module.exports = function LazyJSStreamSocket(...args) {
  JSStreamSocket ??= new tls.TLSSocket(new stream.PassThrough())._handle._parentWrap.constructor;
  return new JSStreamSocket(...args);
};`,
  },
  {
    file: /@sindresorhus[\\/]is[\\/]distribution[\\/]index\.js$/,
    from: "const andFormatter = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });\nconst orFormatter = new Intl.ListFormat('en', { style: 'long', type: 'disjunction' });",
    to: `const andFormatter = { format: (list) => new Intl.ListFormat('en', { style: 'long', type: 'conjunction' }).format(list) };
const orFormatter = { format: (list) => new Intl.ListFormat('en', { style: 'long', type: 'disjunction' }).format(list) };`,
  },
];

const deferAtLoad = {
  name: 'defer-at-load',
  setup(build) {
    for (const { file, from, to } of deferredAtLoad) {
      build.onLoad({ filter: file }, async ({ path }) => {
        const text = await readFile(path, 'utf8');
        if (!text.includes(from)) throw new Error(`${path} has changed: look again at what scripts/build.mjs defers`);
        return { loader: 'js', contents: text.replace(from, to) };
      });
    }
  },
};

await rm('dist', { recursive: true, force: true });
const options = {
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
  plugins: [deferAtLoad],
  logLevel: 'warning',
};
await build(options);

// What bin/ loads for --help and --version, as CommonJS like bin/ itself: Node starts an ES module loader for the
// first ES module a process runs, about a quarter of `node -e 0`, which printing a help text need not pay.
await build({
  entryPoints: { 'help-cache': 'src/help-cache.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: options.target,
  logLevel: options.logLevel,
});

// Every command's help, rendered now by commander so that bin/ can print it without loading the command tree.
await build({ ...options, entryPoints: { 'help-render': 'src/help-render.ts' }, splitting: false });
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
