import { FileWriteError } from '../errors.js';

// A full disk met before any request, told as what happened to the run: nothing was sent.

/** Error codes of a disk that cannot take more: full, or over the user's quota. */
const diskFullCodes = new Set(['ENOSPC', 'EDQUOT']);

/**
 * Turns a full disk met before any request into what happened, naming the file; other errors pass unchanged. The
 * error is found along its causes (the journal's errors wrap the system's).
 */
export function unwritable(file: string): (error: unknown) => never {
  return (error) => {
    for (let cause = error; cause instanceof Error; cause = cause.cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code !== undefined && diskFullCodes.has(code)) {
        throw new FileWriteError(`Cannot write ${file}: the disk is full (${code}); nothing was sent.`, {
          hint: 'Free some space on that disk (or give --journal a path on another), then run the same command again.',
          cause: error,
        });
      }
    }
    throw error;
  };
}
