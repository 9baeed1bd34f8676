import type { RequestOptions } from '../api/client.js';
import type { CommandContext } from '../context.js';
import { interruptedBy, OutcomeUnknownError, ServiceUnavailableError } from '../errors.js';
import { toJson } from './format.js';
import { withSpinner } from './spinner.js';
import type { Terminal } from './terminal.js';

// One create or refund, sent once, and told truthfully: created, not sent, or "may have been sent". A request that
// may have reached the service ends with exit 8 (outcome unknown) and says what is safe to do next; Ctrl-C aborts
// it at once and says which of the two it was.

/** The request, in the words of its outcome. */
export interface OneRequest {
  /** Shown beside the spinner: "Creating the single invoice". */
  doing: string;
  /** What may exist: "the single invoice", "the refund of invoice 1000007". */
  what: string;
  /** What is safe to do when the outcome is unknown. */
  whatIsSafe: string;
  /** The fields `--json` prints with `"outcome":"unknown"`, naming the request. */
  json: Record<string, unknown>;
}

/**
 * Sends `request` under a spinner. The command reports a Ctrl-C itself from here on: the request is aborted at
 * once, and the error says whether it had reached the service.
 */
export async function sendOnce<T>(
  terminal: Terminal,
  context: CommandContext,
  about: OneRequest,
  request: (options: RequestOptions) => Promise<T>,
): Promise<T> {
  if (context.interrupt) context.interrupt.reportsItself = true;
  try {
    return await withSpinner(terminal, context, about.doing, () => request({ signal: context.signal }));
  } catch (error) {
    const unknown = error instanceof ServiceUnavailableError && error.mayHaveTakenEffect();
    if (unknown && terminal.json) terminal.data(toJson({ outcome: 'unknown', ...about.json }));
    if (context.signal?.aborted) {
      throw interruptedBy(
        context.signal,
        unknown
          ? `Interrupted after the request reached the service: ${about.what} may already exist. ${about.whatIsSafe}`
          : `Interrupted before the request reached the service: nothing was sent.`,
      );
    }
    if (unknown) {
      throw new OutcomeUnknownError(
        `Outcome unknown: the request was sent, and ${about.what} may already exist. ${error.message}`,
        { hint: about.whatIsSafe, cause: error },
      );
    }
    if (error instanceof ServiceUnavailableError) {
      // Said in so many words, since running the command again is safe either way: nothing left this machine, or the
      // service answered (a 429, a 503 with Retry-After) that it did not take the request.
      const { mayHaveReachedService } = error;
      throw new ServiceUnavailableError(
        `${error.message} ${
          mayHaveReachedService
            ? 'The service turned the request away: nothing was created or changed.'
            : 'Nothing was sent.'
        }`,
        {
          mayHaveReachedService,
          status: error.status,
          retryAfterMs: error.retryAfterMs,
          cause: error,
          hint: mayHaveReachedService
            ? `${error.hint ?? 'Try again later.'} Running the command again is safe.`
            : error.hint,
        },
      );
    }
    throw error;
  }
}
