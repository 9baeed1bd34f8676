/** Exit codes of the einvoice CLI; each is described once, in `exitCodeTable` below. */
export const ExitCode = {
  Ok: 0,
  Internal: 1,
  Usage: 2,
  Auth: 3,
  Rejected: 4,
  Unavailable: 5,
  Partial: 6,
  Condition: 7,
  OutcomeUnknown: 8,
  FileWrite: 9,
  LocalFile: 10,
  Discrepancy: 11,
  Interrupted: 130,
  Terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** What one exit code means: a line for every list of the codes, and what it tells beyond that line. */
export interface ExitCodeDescription {
  code: ExitCode;
  meaning: string;
  more?: string;
}

/**
 * Every exit code, described once: `einvoice --help`, `einvoice help exit-codes` and docs/exit-codes.md all show
 * this table (a test holds the page to it).
 */
export const exitCodeTable: readonly ExitCodeDescription[] = [
  { code: ExitCode.Ok, meaning: 'success' },
  { code: ExitCode.Internal, meaning: 'unexpected internal error', more: 'run again with --verbose, and report it' },
  { code: ExitCode.Usage, meaning: 'invalid input or usage: nothing was sent' },
  {
    code: ExitCode.Auth,
    meaning: 'authentication failed (401, or a token that cannot be sent)',
    more: 'the message names the environment and how to set its token; a bulk run stops at the first 401',
  },
  {
    code: ExitCode.Rejected,
    meaning: 'rejected by the service (a 4xx other than 401)',
    more: "the service's message and field errors are shown",
  },
  {
    code: ExitCode.Unavailable,
    meaning: 'service unavailable (5xx, time-out, connection)',
    more:
      'for a create or refund, only when nothing reached the service or the service turned it away (429, 503 ' +
      'with Retry-After), so running it again is safe; also a bulk run stopped by its stop rule',
  },
  {
    code: ExitCode.Partial,
    meaning: 'partial failure of a batch',
    more:
      'some records failed, are uncertain or were skipped: the summary and --report say which, and running the ' +
      'same command again resumes',
  },
  { code: ExitCode.Condition, meaning: 'a --fail-if condition of einvoice stats held' },
  {
    code: ExitCode.OutcomeUnknown,
    meaning: 'outcome unknown: a create or refund may have reached the service',
    more:
      'a time-out or a 5xx after it was sent, or an answer that is not the documented one: the invoice or ' +
      'refund may exist, so check before sending it again',
  },
  {
    code: ExitCode.FileWrite,
    meaning: 'a file a bulk run needs could not be written: nothing was sent',
    more:
      'the message names the file or its folder; free some space, or give --journal a path on another disk or in a ' +
      'folder that can be made, and run again',
  },
  {
    code: ExitCode.LocalFile,
    meaning: 'a file einvoice keeps on this machine is damaged or cannot be used',
    more:
      "the sandbox's state file: the message names the file, what is wrong with it (not a database of einvoice, " +
      'cut short, a corrupted page, made by a newer einvoice, read-only, held by another process) and what to do; ' +
      'the file was left as it was',
  },
  {
    code: ExitCode.Discrepancy,
    meaning: 'a --fail-on class of einvoice invoices reconcile has rows',
    more:
      'the orders and the ledger were compared in full: the summary, --json, --report and --emit-missing were ' +
      'written, and the message names each class and its count',
  },
  {
    code: ExitCode.Interrupted,
    meaning: 'interrupted (Ctrl-C, or a confirmation declined)',
    more: 'the message says what was done',
  },
  {
    code: ExitCode.Terminated,
    meaning: 'terminated (SIGTERM), handled as one Ctrl-C',
    more: 'the message says what was done',
  },
];

/** One problem with one input field, e.g. `{ path: 'items[2].price', message: 'must be at least 0' }`. */
export interface FieldIssue {
  path: string;
  message: string;
  /**
   * The message without the value it quotes, when many records can share it: the same cause on many rows is told
   * once, naming the rows.
   */
  cause?: string;
  /**
   * What of the message is this record's own and its cause leaves out (`150.00 ≠ 140.00`): a line telling the cause
   * once keeps it beside the record's place.
   */
  figure?: string;
}

/** Base of every error the CLI expects; anything else is an internal error (exit 1). */
export class EinvoiceError extends Error {
  readonly exitCode: ExitCode;
  /** What the merchant can do about it, printed under the message. */
  readonly hint?: string;

  constructor(message: string, exitCode: ExitCode, options: { hint?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = options.hint;
  }
}

/** Bad flags, files or answers: nothing was sent to the service. */
export class UsageError extends EinvoiceError {
  readonly issues: FieldIssue[];

  constructor(message: string, options: { issues?: FieldIssue[]; hint?: string; cause?: unknown } = {}) {
    super(message, ExitCode.Usage, options);
    this.issues = options.issues ?? [];
  }
}

/** The service answered 401: the token is missing, wrong or expired. */
export class AuthError extends EinvoiceError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, ExitCode.Auth, options);
  }
}

/** The service refused the request (a 4xx other than 401), with what it said. */
export class ServiceRejectedError extends EinvoiceError {
  readonly status: number;
  readonly code?: string;
  readonly issues: FieldIssue[];
  /** For a duplicate: the number of the invoice that already exists, when the service names it. */
  readonly existingInvoiceNumber?: string;

  constructor(
    message: string,
    details: { status: number; code?: string; issues?: FieldIssue[]; existingInvoiceNumber?: string; hint?: string },
  ) {
    super(message, ExitCode.Rejected, { hint: details.hint });
    this.status = details.status;
    this.code = details.code;
    this.issues = details.issues ?? [];
    this.existingInvoiceNumber = details.existingInvoiceNumber;
  }
}

/** The service could not be reached or failed (5xx, time-out, connection). */
export class ServiceUnavailableError extends EinvoiceError {
  /** True when the request may have reached the service, so its effect is unknown. */
  readonly mayHaveReachedService: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  /**
   * Set when the failure is the service's, not the request's: it cannot be reached (connection refused, host not
   * found, TLS refused, no connection or no answer in time) or what answers is not the service (an HTML page). Every
   * other request would likely fail alike, so a bulk run counts it toward stopping.
   */
  readonly serviceDown?: string;

  constructor(
    message: string,
    details: {
      mayHaveReachedService: boolean;
      status?: number;
      retryAfterMs?: number;
      serviceDown?: string;
      hint?: string;
      cause?: unknown;
    },
  ) {
    super(message, ExitCode.Unavailable, { hint: details.hint, cause: details.cause });
    this.mayHaveReachedService = details.mayHaveReachedService;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.serviceDown = details.serviceDown;
  }

  /**
   * True when the failed request may still have taken effect (a create or refund made): it may have reached the
   * service, and nothing in the answer says it was not taken (a 429, or a 503 with Retry-After, says so).
   */
  mayHaveTakenEffect(): boolean {
    if (!this.mayHaveReachedService || this.status === 429) return false;
    return !(this.status === 503 && this.retryAfterMs !== undefined);
  }
}

/**
 * A create or refund that may have reached the service, whose outcome this run cannot know: the invoice (or the
 * refund) may exist. The message says so and what is safe to do next.
 */
export class OutcomeUnknownError extends EinvoiceError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, ExitCode.OutcomeUnknown, options);
  }
}

/** Some records of a batch were not created; the summary says which. */
export class PartialFailureError extends EinvoiceError {
  constructor(message: string, options: { hint?: string } = {}) {
    super(message, ExitCode.Partial, options);
  }
}

/** A `--fail-if` condition held. */
export class ConditionError extends EinvoiceError {
  constructor(message: string) {
    super(message, ExitCode.Condition);
  }
}

/** A reconciliation found rows of a class `--fail-on` names. */
export class DiscrepancyError extends EinvoiceError {
  constructor(message: string) {
    super(message, ExitCode.Discrepancy);
  }
}

/** A file a bulk run must write before it sends (its journal or its lock) cannot be written: nothing was sent. */
export class FileWriteError extends EinvoiceError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, ExitCode.FileWrite, options);
  }
}

/** Why a file einvoice keeps cannot be used; each has its own advice (`LocalFileError`). */
export type LocalFileProblem =
  /** Not a file einvoice made: another program's database, text, a folder's worth of anything. */
  | 'foreign'
  /** einvoice's file, cut short or with a corrupted page. */
  | 'damaged'
  /** einvoice's file, of a version a newer einvoice wrote. */
  | 'newer'
  /** The file or its folder cannot be written. */
  | 'read-only'
  /** Another process held it longer than einvoice waits. */
  | 'locked'
  /** There is no file to open there: a folder, or a folder that cannot be made. */
  | 'unreachable';

/**
 * A file einvoice keeps on this machine (the sandbox's state, a ledger) cannot be used as it is. It was left as it
 * was; the hint says what to do.
 */
export class LocalFileError extends EinvoiceError {
  readonly file: string;
  readonly problem: LocalFileProblem;
  /** What to do about it whoever opened it; `withRemedies()` adds what the opener offers. */
  readonly advice: string;

  constructor(
    message: string,
    details: { file: string; problem: LocalFileProblem; advice: string; remedies?: readonly string[]; cause?: unknown },
  ) {
    super(message, ExitCode.LocalFile, {
      hint: [details.advice, ...(details.remedies ?? [])].join('\n'),
      cause: details.cause,
    });
    this.file = details.file;
    this.problem = details.problem;
    this.advice = details.advice;
  }

  /** The same refusal, its hint followed by `remedies`: the ways out the command offers (a command, a variable). */
  withRemedies(remedies: readonly string[]): LocalFileError {
    const { file, problem, advice, cause } = this;
    return new LocalFileError(this.message, { file, problem, advice, remedies, cause });
  }
}

/** The merchant pressed Ctrl-C or declined a confirmation (exit 130), or the process got SIGTERM (exit 143). */
export class InterruptedError extends EinvoiceError {
  /** The signal that interrupted the command, if one did. */
  readonly signal?: NodeJS.Signals;

  constructor(message = 'Interrupted: nothing was sent.', options: { signal?: NodeJS.Signals } = {}) {
    super(message, options.signal === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted);
    this.signal = options.signal;
  }
}

/** The error a command ends with when `signal` (the command's interruption) aborted, in `message`'s words. */
export function interruptedBy(signal: AbortSignal | undefined, message: string): InterruptedError {
  const reason: unknown = signal?.reason;
  return new InterruptedError(message, { signal: reason instanceof InterruptedError ? reason.signal : undefined });
}
