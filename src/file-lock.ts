import { open, readFile, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// One lock of a file between processes, for a bulk run's journal (the sandbox's database locks itself): a lock file
// created exclusively and holding its owner's process id. A lock whose owner is gone (a killed run) is taken over at
// once, without waiting for it to age.
//
// Taking over is the delicate part: two processes that both find the same dead owner must not both remove "the"
// lock file, since the second removal would delete the first one's new lock. So a lock file of another process is
// only ever removed under a second, short-lived lock (`.takeover`), after reading it again: the one file that may be
// removed is the stale one that was judged.

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
/** A takeover lock is held for a few milliseconds; one older than this was left by a process killed meanwhile. */
const takeoverStaleMs = 10_000;

/**
 * Takes the lock at `lockPath`; resolves to its release. A lock left by a process that is gone is taken over. One
 * held by a running process (another one, or a lock of this one's) is waited for up to `waitMs`, checking every 5
 * to 100 ms, then refused with LockHeldError. Other failures (no such folder, no permission) are thrown as they are.
 */
export async function takeLock(lockPath: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const deadline = Date.now() + (options.waitMs ?? 0);
  const key = resolve(lockPath);
  for (let attempt = 0; ; attempt++) {
    if (await create(lockPath, key)) {
      return async () => {
        await rm(lockPath, { force: true });
        heldHere.delete(key);
      };
    }
    const owner = await ownerOf(lockPath, key);
    // Let go of meanwhile, or taken over from a process that is gone: try again, unless others keep taking it.
    const free = owner === 'released' || (owner === 'gone' && (await removeStale(lockPath, key)));
    if (free && attempt < 3) continue;
    if (Date.now() >= deadline) throw new LockHeldError(lockPath, typeof owner === 'number' ? owner : undefined);
    await sleep(Math.min(100, 5 * 1.5 ** Math.min(attempt, 10)));
  }
}

/** Creates the lock file naming this process; false when it exists. */
async function create(lockPath: string, key: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockPath, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  heldHere.add(key);
  try {
    await handle.writeFile(`${process.pid}\n`);
    await handle.close();
    return true;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(lockPath, { force: true });
    heldHere.delete(key);
    throw error;
  }
}

type Owner = number | 'being-taken' | 'gone' | 'released';

/** Who holds the lock: a running process, one creating it right now, nobody alive, or nobody any more. */
async function ownerOf(lockPath: string, key: string): Promise<Owner> {
  const text = await lockText(lockPath);
  if (text === undefined) return 'released';
  const owner = Number(text.trim());
  if (!(Number.isInteger(owner) && owner > 0)) return (await isRecent(lockPath, creationMs)) ? 'being-taken' : 'gone';
  if (owner === process.pid) return heldHere.has(key) ? owner : 'gone';
  return isRunning(owner) ? owner : 'gone';
}

/** The lock file's text; undefined when there is no lock. */
async function lockText(lockPath: string): Promise<string | undefined> {
  try {
    return await readFile(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Removes a lock judged stale, under the takeover lock, after reading it again: true when it is gone (removed here
 * or by its owner), false when another process holds it now or is taking it over.
 */
async function removeStale(lockPath: string, key: string): Promise<boolean> {
  const takeoverPath = `${lockPath}.takeover`;
  let takeover;
  try {
    takeover = await open(takeoverPath, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another process is taking it over right now, unless it was killed while it did. A takeover lock gone by the
    // time it is looked at was let go: removing "it" then would remove the next taker's.
    const info = await stat(takeoverPath).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs >= takeoverStaleMs) await rm(takeoverPath, { force: true });
    return false;
  }
  try {
    const owner = await ownerOf(lockPath, key);
    if (owner === 'released') return true;
    if (owner !== 'gone') return false;
    await rm(lockPath, { force: true });
    return true;
  } finally {
    await takeover.close();
    await rm(takeoverPath, { force: true });
  }
}

async function isRecent(path: string, withinMs: number): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs < withinMs;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
