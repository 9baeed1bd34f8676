import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleHeader, codeCacheFile, commandOf, requireWithCodeCache, type CodeCache } from '../src/code-cache.js';

const build = 'build-1';

/** A CommonJS bundle of `build` in a new folder, with a sibling it requires, as the CLI bundle is laid out. */
function bundle(): { file: string; folder: string; cache: CodeCache } {
  const folder = mkdtempSync(join(tmpdir(), 'einvoice-code-cache-'));
  writeFileSync(join(folder, 'sibling.cjs'), 'module.exports = 41;\n');
  const file = join(folder, 'bundle.cjs');
  writeFileSync(
    file,
    [
      bundleHeader(build).trimEnd(),
      "const path = require('node:path');",
      "const sibling = require('./sibling.cjs');",
      'exports.answer = (n) => sibling + n;',
      'exports.where = { file: path.basename(__filename), folder: __dirname };',
    ].join('\n'),
  );
  return { file, folder, cache: { file: join(folder, 'cache', build, 'stats.bin'), build } };
}

type Bundle = { answer(n: number): number; where: { file: string; folder: string } };

/** The first bytes of a cache file of `build`. */
const header = (of: string) => Buffer.from(`einvoice code cache ${of}\n`, 'latin1');

/** Writes the cache `from` a first load, as a first run does. */
function firstRun(file: string, cache: CodeCache): void {
  requireWithCodeCache<Bundle>(file, cache).saveCache();
}

describe('requireWithCodeCache', () => {
  it('loads the module as require would, then writes its cache, which the next load uses', () => {
    const { file, folder, cache } = bundle();

    const first = requireWithCodeCache<Bundle>(file, cache);
    expect(first.state).toBe('missing');
    expect(first.exports.answer(1)).toBe(42);
    expect(first.exports.where).toEqual({ file: 'bundle.cjs', folder });
    first.saveCache();
    expect(statSync(cache.file).mode & 0o777).toBe(0o600);
    expect(statSync(join(folder, 'cache')).mode & 0o777).toBe(0o700);
    expect(statSync(join(folder, 'cache', build)).mode & 0o777).toBe(0o700);
    // The file names its build before V8's data.
    expect(readFileSync(cache.file).subarray(0, header(build).length)).toEqual(header(build));

    const second = requireWithCodeCache<Bundle>(file, cache);
    expect(second.state).toBe('used');
    expect(second.exports.answer(2)).toBe(43);
  });

  it('compiles from the source when V8 refuses the cache, and replaces it', () => {
    const { file, folder, cache } = bundle();
    // The header is right, V8's data is not. (Written by hand: a source this process compiled already would come
    // from V8's own in-memory cache, whatever the file holds.)
    mkdirSync(join(folder, 'cache', build), { recursive: true, mode: 0o700 });
    writeFileSync(cache.file, Buffer.concat([header(build), Buffer.from('damaged')]), { mode: 0o600 });

    const damaged = requireWithCodeCache<Bundle>(file, cache);
    expect(damaged.state).toBe('rejected');
    expect(damaged.exports.answer(1)).toBe(42);
    damaged.saveCache();
    expect(requireWithCodeCache<Bundle>(file, cache).state).toBe('used');
  });

  it('neither reads nor writes a cache of another build, or one a bundle of another build would get', () => {
    const { file, cache } = bundle();
    firstRun(file, cache);
    const other = { ...cache, build: 'build-2' };
    const refused = requireWithCodeCache<Bundle>(file, other);
    expect(refused.state).toBe('untrusted');
    expect(refused.exports.answer(1)).toBe(42);

    // A cache file written for build-2 is not used for build-1, whatever its name.
    const planted = readFileSync(cache.file);
    writeFileSync(cache.file, Buffer.concat([header('build-2'), planted.subarray(header(build).length)]), {
      mode: 0o600,
    });
    const loaded = requireWithCodeCache<Bundle>(file, cache);
    expect(loaded.state).toBe('untrusted');
    loaded.saveCache();
    expect(readFileSync(cache.file).subarray(0, header('build-2').length)).toEqual(header('build-2'));
  });

  it('neither reads nor writes a cache that other users could have written', () => {
    const { file, folder, cache } = bundle();
    firstRun(file, cache);
    chmodSync(cache.file, 0o666);
    expect(requireWithCodeCache<Bundle>(file, cache).state).toBe('untrusted');

    chmodSync(cache.file, 0o600);
    chmodSync(join(folder, 'cache', build), 0o777);
    const inOpenFolder = requireWithCodeCache<Bundle>(file, cache);
    expect(inOpenFolder.state).toBe('untrusted');
    inOpenFolder.saveCache();
    expect(readdirSync(join(folder, 'cache', build))).toEqual(['stats.bin']);
  });

  it('without a cache, neither reads nor writes one', () => {
    const { file, folder } = bundle();
    const loaded = requireWithCodeCache<Bundle>(file, undefined);
    expect(loaded.state).toBe('off');
    loaded.saveCache();
    expect(readdirSync(folder).sort()).toEqual(['bundle.cjs', 'sibling.cjs']);
  });

  it('runs on when the cache cannot be written', () => {
    const { file, folder, cache } = bundle();
    // A file where the cache's folder should be: the folder cannot be made.
    writeFileSync(join(folder, 'cache'), '');
    const loaded = requireWithCodeCache<Bundle>(file, cache);
    expect(() => loaded.saveCache()).not.toThrow();
    expect(loaded.exports.answer(0)).toBe(41);
  });

  it('keeps the caches of the three builds written last', () => {
    const { file, folder } = bundle();
    const caches = join(folder, 'cache');
    for (const [index, old] of ['old-1', 'old-2', 'old-3'].entries()) {
      mkdirSync(join(caches, old), { recursive: true, mode: 0o700 });
      writeFileSync(join(caches, old, 'stats.bin'), 'x');
      const written = new Date(Date.now() - (10 - index) * 60_000);
      utimesSync(join(caches, old), written, written);
    }
    requireWithCodeCache(file, { file: join(caches, build, 'stats.bin'), build }).saveCache();
    expect(readdirSync(caches).sort()).toEqual([build, 'old-2', 'old-3']);
    expect(readFileSync(join(caches, 'old-3', 'stats.bin'), 'utf8')).toBe('x');
  });
});

describe('codeCacheFile', () => {
  it('names the build, the Node.js version, the architecture and the command', () => {
    expect(codeCacheFile('/cache', 'abc123', 'create single')).toBe(
      join('/cache', 'abc123', `${process.version}-${process.arch}-create-single.bin`),
    );
  });
});

describe('commandOf', () => {
  const commands = ['stats', 'refund', 'create', 'create single', 'create recurring', 'sandbox', 'sandbox serve'];
  const optionsWithValue = ['-e', '--env', '-c', '--config', '--timeout'];

  it.each([
    [['stats'], 'stats'],
    [['--env', 'staging', 'stats', '--json'], 'stats'],
    [['create', 'single', '--file', 'invoices.ndjson'], 'create single'],
    [['-e', 'sandbox', 'create', 'recurring'], 'create recurring'],
    [['--env=sandbox', '--timeout', '5', 'stats'], 'stats'],
    [['--json', 'sandbox', 'pay', '1000001'], 'sandbox'],
    [['refund', '1000007', '--amount', '10'], 'refund'],
    [['create', '--help'], 'create'],
    [['sandbox', 'serve', '--port', '0'], 'sandbox serve'],
    [[], 'other'],
    [['statz'], 'other'],
  ])('%j runs %s', (args, expected) => {
    expect(commandOf(args, commands, optionsWithValue)).toBe(expected);
  });
});
