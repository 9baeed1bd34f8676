import { open, readFile, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// One lock of a file between processes, for a bulk run's journal and the sandbox's state file: a lock file created
// exclusively and holding its owner's process id. A lock whose owner is gone (a killed run) is taken over at once,
// without waiting for it to age.

/** The lock is held by a process that is still running. */
export class LockHeldError extends Error {
  constructor(
    readonly lockPath: string,
    /** The owner's process id, when the lock file names one yet. */
    readonly owner: number | undefined,
  ) {
    super(`${lockPath} is held${owner === undefined ? '' : ` by process ${owner}`}`);
    this.name = 'LockHeldError';
  }
}

export interface LockOptions {
  /** How long to wait for a running owner to let go; 0 (the default) fails at once with LockHeldError. */
  waitMs?: number;
}

/** Lock files this process holds now: its own process id in one of them is not a stale lock. */
const heldHere = new Set<string>();

/** A lock file that names no owner yet is being created right now, unless it is older than this. */
const creationMs = 5_000;

/**
 * Takes the lock at `lockPath`; resolves to its release. A lock left by a process that is gone is removed and
 * taken. One held by a running process (another one, or a lock of this one's) is waited for up to `waitMs`,
 * checking every 5 to 100 ms, then refused with LockHeldError. Other failures (no such folder, no permission)
 * are thrown as they are.
 */
export async function takeLock(lockPath: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const deadline = Date.now() + (options.waitMs ?? 0);
  const key = resolve(lockPath);
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      heldHere.add(key);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      return async () => {
        heldHere.delete(key);
        await rm(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await ownerOf(lockPath, key);
    // Let go of, or left by a process that is gone: try again, unless others keep taking it.
    const free = owner === 'released' || owner === 'gone';
    if (owner === 'gone') await rm(lockPath, { force: true });
    if (free && attempt < 3) continue;
    if (Date.now() >= deadline) throw new LockHeldError(lockPath, typeof owner === 'number' ? owner : undefined);
    await sleep(Math.min(100, 5 * 1.5 ** Math.min(attempt, 10)));
  }
}

/** Who holds the lock: a running process, one creating it right now, nobody alive, or nobody any more. */
async function ownerOf(lockPath: string, key: string): Promise<number | 'being-taken' | 'gone' | 'released'> {
  const text = await readFile(lockPath, 'utf8').catch(() => undefined);
  // Released between our attempt and this read.
  if (text === undefined) return 'released';
  const owner = Number(text.trim());
  if (!(Number.isInteger(owner) && owner > 0)) return (await isRecent(lockPath)) ? 'being-taken' : 'gone';
  if (owner === process.pid) return heldHere.has(key) ? owner : 'gone';
  return isRunning(owner) ? owner : 'gone';
}

async function isRecent(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs < creationMs;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
