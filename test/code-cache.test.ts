import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeCacheFile, commandOf, requireWithCodeCache } from '../src/code-cache.js';

/** A CommonJS module in a new folder, with a sibling it requires, as the CLI bundle is laid out. */
function bundle(): { file: string; folder: string } {
  const folder = mkdtempSync(join(tmpdir(), 'einvoice-code-cache-'));
  writeFileSync(join(folder, 'sibling.cjs'), 'module.exports = 41;\n');
  const file = join(folder, 'bundle.cjs');
  writeFileSync(
    file,
    [
      "const path = require('node:path');",
      "const sibling = require('./sibling.cjs');",
      'exports.answer = (n) => sibling + n;',
      'exports.where = { file: path.basename(__filename), folder: __dirname };',
    ].join('\n'),
  );
  return { file, folder };
}

type Bundle = {
  answer(n: number): number;
  where: { file: string; folder: string };
};

describe('requireWithCodeCache', () => {
  it('loads the module as require would, then writes its cache, which the next load uses', () => {
    const { file, folder } = bundle();
    const cacheFile = join(folder, 'cache', 'build-1', 'stats.bin');

    const first = requireWithCodeCache<Bundle>(file, cacheFile);
    expect(first.state).toBe('missing');
    expect(first.exports.answer(1)).toBe(42);
    expect(first.exports.where).toEqual({ file: 'bundle.cjs', folder });
    first.saveCache();
    expect(statSync(cacheFile).size).toBeGreaterThan(0);
    expect(statSync(cacheFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(folder, 'cache')).mode & 0o777).toBe(0o700);

    const second = requireWithCodeCache<Bundle>(file, cacheFile);
    expect(second.state).toBe('used');
    expect(second.exports.answer(2)).toBe(43);
  });

  it('compiles from the source when the cache is damaged, and replaces it', () => {
    const { file, folder } = bundle();
    const cacheFile = join(folder, 'cache', 'build-1', 'stats.bin');
    mkdirSync(join(folder, 'cache', 'build-1'), { recursive: true });
    writeFileSync(cacheFile, 'not a code cache');

    const damaged = requireWithCodeCache<Bundle>(file, cacheFile);
    expect(damaged.state).toBe('rejected');
    expect(damaged.exports.answer(1)).toBe(42);
    damaged.saveCache();
    expect(requireWithCodeCache<Bundle>(file, cacheFile).state).toBe('used');
  });

  it('without a cache file, neither reads nor writes one', () => {
    const { file, folder } = bundle();
    const loaded = requireWithCodeCache<Bundle>(file, undefined);
    expect(loaded.state).toBe('off');
    loaded.saveCache();
    expect(readdirSync(folder).sort()).toEqual(['bundle.cjs', 'sibling.cjs']);
  });

  it('runs on when the cache cannot be written', () => {
    const { file, folder } = bundle();
    // A file where the cache's folder should be: the folder cannot be made.
    writeFileSync(join(folder, 'cache'), '');
    const loaded = requireWithCodeCache<Bundle>(file, join(folder, 'cache', 'build-1', 'stats.bin'));
    expect(() => loaded.saveCache()).not.toThrow();
    expect(loaded.exports.answer(0)).toBe(41);
  });

  it('keeps the caches of the three builds written last', () => {
    const { file, folder } = bundle();
    const caches = join(folder, 'cache');
    for (const [index, build] of ['old-1', 'old-2', 'old-3'].entries()) {
      mkdirSync(join(caches, build), { recursive: true });
      writeFileSync(join(caches, build, 'stats.bin'), 'x');
      const written = new Date(Date.now() - (10 - index) * 60_000);
      utimesSync(join(caches, build), written, written);
    }
    requireWithCodeCache(file, join(caches, 'new', 'stats.bin')).saveCache();
    expect(readdirSync(caches).sort()).toEqual(['new', 'old-2', 'old-3']);
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
