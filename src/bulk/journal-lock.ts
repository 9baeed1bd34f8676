import { open, readFile, rm, stat } from 'node:fs/promises';
import { UsageError } from '../errors.js';

// One run at a time per journal: two runs appending to the same journal would send the same records twice. The
// lock is a file holding the owner's process id, so a lock left by a killed run is taken over at once.

/** Takes the lock of the journal at `journalPath`; resolves to its release. */
export async function lockJournal(journalPath: string): Promise<() => Promise<void>> {
  const lockPath = `${journalPath}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return () => rm(lockPath, { force: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new UsageError(`Cannot lock the journal ${journalPath}: ${(error as Error).message}.`);
      }
    }
    const owner = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
    // A lock without a process id yet is being taken by another run right now.
    const beingTaken = !(owner > 0) && (await isRecent(lockPath));
    if (beingTaken || (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner))) {
      throw new UsageError(
        `Another einvoice run${owner > 0 ? ` (process ${owner})` : ''} is using the journal ${journalPath}.`,
        {
          hint: 'Wait for it to end. Parallel jobs need their own journal: use --shard I/N, or --journal PATH.',
        },
      );
    }
    // Left by a run that is gone.
    await rm(lockPath, { force: true });
  }
  throw new UsageError(`Cannot lock the journal ${journalPath}: another run keeps taking it.`);
}

async function isRecent(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs < 5_000;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
