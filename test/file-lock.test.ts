import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { LockHeldError, takeLock } from '../src/file-lock.js';

// The one lock of a file between processes (a bulk run's journal, the sandbox's state file).

const lockPath = () => join(mkdtempSync(join(tmpdir(), 'einvoice-lock-')), 'state.json.lock');

describe('takeLock', () => {
  it('writes its process id into the lock file and removes the file on release', async () => {
    const path = lockPath();
    const release = await takeLock(path);
    expect(readFileSync(path, 'utf8')).toBe(`${process.pid}\n`);
    await release();
    expect(existsSync(path)).toBe(false);
  });

  it('refuses at once a lock held in this process, and waits for it when asked', async () => {
    const path = lockPath();
    const release = await takeLock(path);
    await expect(takeLock(path)).rejects.toBeInstanceOf(LockHeldError);
    // Waiting does not take the lock from its holder: with no release, the wait ends refused, the lock untouched.
    const { ino } = statSync(path);
    await expect(takeLock(path, { waitMs: 200 })).rejects.toBeInstanceOf(LockHeldError);
    expect(statSync(path).ino).toBe(ino);
    // A waiter takes it once it is released.
    const waiting = takeLock(path, { waitMs: 30_000 });
    await release();
    const second = await waiting;
    expect(readFileSync(path, 'utf8')).toBe(`${process.pid}\n`);
    await second();
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a lock held by another running process, naming it', async () => {
    const path = lockPath();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      writeFileSync(path, `${child.pid}\n`);
      const refusal = await takeLock(path).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(LockHeldError);
      expect(refusal).toMatchObject({ owner: child.pid });
    } finally {
      child.kill();
    }
  });

  it('takes over at once a lock left by a process that is gone', async () => {
    const path = lockPath();
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await once(child, 'exit');
    writeFileSync(path, `${child.pid}\n`);
    const release = await takeLock(path);
    expect(readFileSync(path, 'utf8')).toBe(`${process.pid}\n`);
    await release();
  });

  it('takes over a lock naming this process that this process does not hold (left by an earlier run)', async () => {
    // In a container every run may have the same process id.
    const path = lockPath();
    writeFileSync(path, `${process.pid}\n`);
    const release = await takeLock(path);
    await release();
    expect(existsSync(path)).toBe(false);
  });

  it('treats a fresh lock file without a process id as being taken, and an old one as left behind', async () => {
    const path = lockPath();
    writeFileSync(path, '');
    await expect(takeLock(path)).rejects.toMatchObject({ owner: undefined });
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(path, minuteAgo, minuteAgo);
    const release = await takeLock(path);
    await release();
  });

  it('is taken over by one process at a time when several find the same dead owner at once', async () => {
    // Each process adds 1 to a shared counter 50 times under the lock (read, then write): a lock held by two at
    // once loses updates. Each holder then leaves the lock as a killed process would, naming a process that is
    // gone, so that every one of the 300 turns is a takeover raced by the others.
    const dir = mkdtempSync(join(tmpdir(), 'einvoice-lock-race-'));
    const lockModule = join(dir, 'file-lock.mjs');
    buildSync({
      entryPoints: ['src/file-lock.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: lockModule,
    });
    const counter = join(dir, 'counter');
    const lock = join(dir, 'counter.lock');
    writeFileSync(counter, '0');
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await once(gone, 'exit');
    const left = `${gone.pid}\n`;
    writeFileSync(lock, left);
    const worker = `
      import { readFileSync, writeFileSync } from 'node:fs';
      const { takeLock } = await import(${JSON.stringify(lockModule)});
      for (let i = 0; i < 50; i++) {
        await takeLock(${JSON.stringify(lock)}, { waitMs: 60_000 });
        const value = Number(readFileSync(${JSON.stringify(counter)}, 'utf8'));
        writeFileSync(${JSON.stringify(counter)}, String(value + 1));
        writeFileSync(${JSON.stringify(lock)}, ${JSON.stringify(left)});
      }`;
    const workers = Array.from({ length: 6 }, () =>
      spawn(process.execPath, ['--input-type=module', '-e', worker], { stdio: 'inherit' }),
    );
    const codes = await Promise.all(workers.map(async (child) => (await once(child, 'exit'))[0] as number));
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    expect(readFileSync(counter, 'utf8')).toBe('300');
  }, 60_000);
});
