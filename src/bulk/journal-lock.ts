import { UsageError } from '../errors.js';
import { LockHeldError, takeLock } from '../file-lock.js';

// One run at a time per journal: two runs appending to the same journal would send the same records twice. A lock
// left by a killed run is taken over at once (src/file-lock.ts).

/** Takes the lock of the journal at `journalPath`; resolves to its release. */
export async function lockJournal(journalPath: string): Promise<() => Promise<void>> {
  try {
    return await takeLock(`${journalPath}.lock`);
  } catch (error) {
    if (error instanceof LockHeldError) {
      throw new UsageError(
        `Another einvoice run${error.owner === undefined ? '' : ` (process ${error.owner})`} is using the journal ${journalPath}.`,
        {
          hint:
            'Wait for it to end. Parallel jobs need their own journal: use --shard I/N, or --journal PATH.' +
            '\nsee: einvoice help journal',
        },
      );
    }
    throw new UsageError(`Cannot lock the journal ${journalPath}: ${(error as Error).message}.`, { cause: error });
  }
}
