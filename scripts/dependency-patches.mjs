import { readFile } from 'node:fs/promises';

// What the build changes in dependencies' code as it bundles them. Each edit must find its exact text, or the build
// fails: a new version of a dependency is then looked at, rather than silently left slow.

/**
 * Work that dependencies do the moment they load, which every command that talks to the service would pay for and
 * none needs: each is deferred until first use.
 */
const deferredAtLoad = [
  {
    // http2-wrapper builds a TLS socket only to read a class off it (for HTTP/2 proxies, which einvoice never
    // uses): that makes a TLS context and parses the root certificates, 20 to 35 ms.
    file: /http2-wrapper[\\/]source[\\/]utils[\\/]js-stream-socket\.js$/,
    from: 'const JSStreamSocket = (new tls.TLSSocket(new stream.PassThrough()))._handle._parentWrap.constructor;\n\nmodule.exports = JSStreamSocket;',
    to: `let JSStreamSocket;
module.exports = function LazyJSStreamSocket(...args) {
  JSStreamSocket ??= new tls.TLSSocket(new stream.PassThrough())._handle._parentWrap.constructor;
  return new JSStreamSocket(...args);
};`,
  },
  {
    // @sindresorhus/is makes two Intl.ListFormat objects for its error messages: the first Intl object of a process
    // loads ICU's locale data, some 15 ms.
    file: /@sindresorhus[\\/]is[\\/]distribution[\\/]index\.js$/,
    from: "const andFormatter = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });\nconst orFormatter = new Intl.ListFormat('en', { style: 'long', type: 'disjunction' });",
    to: `const andFormatter = { format: (list) => new Intl.ListFormat('en', { style: 'long', type: 'conjunction' }).format(list) };
const orFormatter = { format: (list) => new Intl.ListFormat('en', { style: 'long', type: 'disjunction' }).format(list) };`,
  },
  {
    // commander loads Node's child_process (with net and dgram) for subcommands that are programs of their own,
    // which einvoice has none of.
    file: /commander[\\/]lib[\\/]command\.js$/,
    from: "const childProcess = require('node:child_process');",
    to: "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  },
  {
    // got loads its DNS cache (cacheable-lookup) and its HTTP/2 client (http2-wrapper, with Node's http2) for
    // options einvoice never sets, `dnsCache` and `http2`.
    file: /got[\\/]dist[\\/]source[\\/]core[\\/]options\.js$/,
    from: "import CacheableLookup from 'cacheable-lookup';\nimport http2wrapper from 'http2-wrapper';",
    to: `const CacheableLookup = function (...args) { return new (require('cacheable-lookup').default)(...args); };
const http2wrapper = {
  get auto() { return require('http2-wrapper').auto; },
  get globalAgent() { return require('http2-wrapper').globalAgent; },
};`,
  },
  {
    // ... and its HTTP cache (cacheable-request, with keyv and http-cache-semantics) for `cache`. A CacheError can
    // only come from a cache that was loaded.
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

/**
 * Work that dependencies do for every request, made cheaper without changing what it makes.
 */
const fasterPerRequest = [
  {
    // got builds the options of each request for Node's http as an object literal that starts with two spreads.
    // V8 then adds each of its 30 named properties on its slowest path, some 50 µs a request, a tenth of got's CPU
    // time in a bulk run, and hands http an object slow to copy. The same keys with the spreads last take 0.1 µs:
    // the spread objects (cache options, a Unix socket's path) share no key with the named properties, so the
    // object is the same.
    file: /got[\\/]dist[\\/]source[\\/]core[\\/]options\.js$/,
    from: `        return {
            ...internals.cacheOptions,
            ...this._unixOptions,
            // HTTPS options`,
    to: `        return {
            // HTTPS options`,
  },
  {
    file: /got[\\/]dist[\\/]source[\\/]core[\\/]options\.js$/,
    from: `            // HTTP/2 options
            h2session: internals.h2session,
        };`,
    to: `            // HTTP/2 options
            h2session: internals.h2session,
            ...internals.cacheOptions,
            ...this._unixOptions,
        };`,
  },
];

/** The edits of each file, by the pattern of its path. */
function editsByFile() {
  const files = new Map();
  for (const edit of [...deferredAtLoad, ...fasterPerRequest]) {
    const key = edit.file.source;
    if (!files.has(key)) files.set(key, { file: edit.file, edits: [] });
    files.get(key).edits.push(edit);
  }
  return [...files.values()];
}

/**
 * The esbuild plugin that makes the edits. Each must find its text exactly once. With `everyFile`, a build that does
 * not load every file edited fails too: a dependency that moved a file would otherwise lose its edit silently.
 */
export function patchDependencies({ everyFile = false } = {}) {
  return {
    name: 'patch-dependencies',
    setup(build) {
      const loaded = new Set();
      for (const { file, edits } of editsByFile()) {
        build.onLoad({ filter: file }, async ({ path }) => {
          let text = await readFile(path, 'utf8');
          for (const { from, to } of edits) {
            if (text.split(from).length !== 2) {
              throw new Error(`${path} has changed: look again at scripts/dependency-patches.mjs`);
            }
            text = text.replace(from, () => to);
          }
          loaded.add(file.source);
          return { loader: 'js', contents: text };
        });
      }
      build.onEnd((result) => {
        if (!everyFile || result.errors.length > 0) return;
        const missed = editsByFile().filter(({ file }) => !loaded.has(file.source));
        if (missed.length > 0) {
          throw new Error(
            `No file matched ${missed.map(({ file }) => file).join(', ')}: look again at scripts/dependency-patches.mjs`,
          );
        }
      });
    },
  };
}
