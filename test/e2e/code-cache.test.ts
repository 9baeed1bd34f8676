import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../helpers/cli.js';

// The CLI keeps V8's compiled code of each command in the merchant's cache folder and starts from it the next time
// (src/code-cache.ts). What a command prints must never depend on it.

/** The code cache files under `cacheHome`, by name, with their contents. */
function cacheFiles(cacheHome: string): Map<string, Buffer> {
  const folder = join(cacheHome, 'einvoice', 'code');
  const files = new Map<string, Buffer>();
  if (!existsSync(folder)) return files;
  for (const build of readdirSync(folder)) {
    for (const name of readdirSync(join(folder, build))) {
      files.set(join(folder, build, name), readFileSync(join(folder, build, name)));
    }
  }
  return files;
}

describe('the code cache', () => {
  it("is written by a command's first run and read, unchanged, by the next", async () => {
    const home = tempHome();
    const first = await runCli(['stats', '--env', 'sandbox', '--json'], { env: { HOME: home } });
    expect(first.code, first.stderr).toBe(0);
    const written = cacheFiles(join(home, '.cache'));
    expect([...written.keys()].map((file) => basename(file))).toEqual([`${process.version}-${process.arch}-stats.bin`]);
    const [file] = written.keys();
    const before = statSync(file as string);
    expect(before.mode & 0o777).toBe(0o600);

    const second = await runCli(['stats', '--env', 'sandbox', '--json'], { env: { HOME: home } });
    expect(second).toEqual(first);
    // Not written again (a refused cache is replaced by a new file, renamed into place).
    expect(cacheFiles(join(home, '.cache'))).toEqual(written);
    const after = statSync(file as string);
    expect({ ino: after.ino, mtimeMs: after.mtimeMs }).toEqual({ ino: before.ino, mtimeMs: before.mtimeMs });
  });

  it('keeps one file per command', async () => {
    const home = tempHome();
    await runCli(['--env', 'sandbox', 'stats'], { env: { HOME: home } });
    await runCli(['-e', 'sandbox', 'sandbox', 'outbox'], { env: { HOME: home } });
    await runCli(['config', 'show'], { env: { HOME: home } });
    const names = [...cacheFiles(join(home, '.cache')).keys()].map((file) => basename(file));
    const prefix = `${process.version}-${process.arch}-`;
    expect(names.sort()).toEqual([`${prefix}config-show.bin`, `${prefix}sandbox-outbox.bin`, `${prefix}stats.bin`]);
  });

  it('is replaced when V8 refuses it, with the same output', async () => {
    const home = tempHome();
    const clean = await runCli(['stats', '--env', 'sandbox'], { env: { HOME: home } });
    const [file] = [...cacheFiles(join(home, '.cache')).keys()] as [string];
    const header = readFileSync(file).subarray(0, readFileSync(file).indexOf(10) + 1);
    writeFileSync(file, Buffer.concat([header, Buffer.from('damaged')]));

    const again = await runCli(['stats', '--env', 'sandbox'], { env: { HOME: home } });
    expect(again).toEqual(clean);
    expect(readFileSync(file).length).toBeGreaterThan(header.length + 'damaged'.length);
  });

  it('is not run when another user could have written it, nor when it is of another build', async () => {
    const home = tempHome();
    const clean = await runCli(['stats', '--env', 'sandbox'], { env: { HOME: home } });
    const [file] = [...cacheFiles(join(home, '.cache')).keys()] as [string];
    const written = readFileSync(file);
    // A same-length cache of another bundle would run that bundle's code: a run must never take one from a file
    // others can write, nor one whose header names another build.
    writeFileSync(file, Buffer.concat([written.subarray(0, written.indexOf(10) + 1), Buffer.from('planted')]));
    chmodSync(file, 0o666);
    const open = await runCli(['stats', '--env', 'sandbox'], { env: { HOME: home } });
    expect(open).toEqual(clean);
    expect(readFileSync(file).toString('latin1').endsWith('planted')).toBe(true);

    chmodSync(file, 0o600);
    writeFileSync(file, Buffer.from('einvoice code cache 0000000000000000\nplanted'));
    expect(await runCli(['stats', '--env', 'sandbox'], { env: { HOME: home } })).toEqual(clean);
    expect(readFileSync(file).toString('latin1').endsWith('planted')).toBe(true);
  });

  it('lives in XDG_CACHE_HOME when it is set, and nowhere with NODE_DISABLE_COMPILE_CACHE', async () => {
    const home = tempHome();
    const cacheHome = join(home, 'elsewhere');
    await runCli(['stats', '--env', 'sandbox'], { env: { HOME: home, XDG_CACHE_HOME: cacheHome } });
    expect(cacheFiles(cacheHome).size).toBe(1);
    expect(existsSync(join(home, '.cache'))).toBe(false);

    const off = tempHome();
    const result = await runCli(['stats', '--env', 'sandbox'], { env: { HOME: off, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(result.code).toBe(0);
    expect(existsSync(join(off, '.cache'))).toBe(false);
  });
});
