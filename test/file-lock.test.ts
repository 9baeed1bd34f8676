import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    let second: (() => Promise<void>) | undefined;
    const waiting = takeLock(path, { waitMs: 30_000 }).then((taken) => (second = taken));
    expect(second).toBeUndefined();
    await release();
    await waiting;
    expect(readFileSync(path, 'utf8')).toBe(`${process.pid}\n`);
    await second?.();
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
});
