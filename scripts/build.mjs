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

/**
 * Work that got's dependencies do the moment they load, which every command that talks to the service would pay for
 * and none needs: each is deferred until first use. The build fails if a dependency's text has changed, so that a
 * new version is looked at rather than silently left slow.
 * - http2-wrapper builds a TLS socket only to read a class off it (for HTTP/2 proxies, which einvoice never uses):
 *   that makes a TLS context and parses the root certificates, 20 to 35 ms.
 * - @sindresorhus/is makes two Intl.ListFormat objects for its error messages: the first Intl object of a process
 *   loads ICU's locale data, some 15 ms.
 * - commander loads Node's child_process (with net and dgram) for subcommands that are programs of their own, which
 *   einvoice has none of.
 * - got loads its HTTP cache (cacheable-request, with keyv and http-cache-semantics), its DNS cache
 *   (cacheable-lookup) and its HTTP/2 client (http2-wrapper, with Node's http2) for options einvoice never sets:
 *   `cache`, `dnsCache` and `http2`. They load on first use instead (some 15 ms); a CacheError can only come from a
 *   cache that was loaded.
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
  {
    file: /commander[\\/]lib[\\/]command\.js$/,
    from: "const childProcess = require('node:child_process');",
    to: "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  },
  {
    file: /got[\\/]dist[\\/]source[\\/]core[\\/]options\.js$/,
    from: "import CacheableLookup from 'cacheable-lookup';\nimport http2wrapper from 'http2-wrapper';",
    to: `const CacheableLookup = function (...args) { return new (require('cacheable-lookup').default)(...args); };
const http2wrapper = {
  get auto() { return require('http2-wrapper').auto; },
  get globalAgent() { return require('http2-wrapper').globalAgent; },
};`,
  },
  {
    file: /got[\\/]dist[\\/]source[\\/]core[\\/]index\.js$/,
    from: "import CacheableRequest, { CacheError as CacheableCacheError, } from 'cacheable-request';",
    to: `let cacheableRequest;
const CacheableRequest = function (...args) {
  cacheableRequest ??= require('cacheable-request');
  return new cacheableRequest.default(...args);
};
const CacheableCacheError = {
  [Symbol.hasInstance]: (error) => cacheableRequest !== undefined && error instanceof cacheableRequest.CacheError,
};`,
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
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.17',
  // typescript and jiti load only for TypeScript profile files, which einvoice does not search for.
  external: ['typescript', 'jiti'],
  plugins: [deferAtLoad],
  logLevel: 'warning',
};

// The CLI. Its commands' modules are still evaluated only when their command runs: esbuild turns each import() of
// a command into a function that evaluates that part of the bundle. Whitespace and syntax are minified (not
// names): a smaller file is faster to read and to check against its code cache.
await build({
  ...common,
  entryPoints: { cli: 'src/index.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
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
const cliId = createHash('sha256').update(cliBundle).digest('hex').slice(0, 16);

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
  ...common,
  entryPoints: { launch: 'src/launch.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
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
