import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { AuthError, ServiceRejectedError, ServiceUnavailableError } from '../errors.js';
import type { KindClient, SendingKind } from './kind.js';
import type { JournalEntry, JournalWriter } from './journal.js';
import { Pacer } from './pacer.js';
import type { RecordResult, RecordResults, RecordStatus } from './results.js';
import { decideRetry, failsEveryRecord, rateLimitPauseMs } from './retry-policy.js';

// Sends the planned records with a pool of workers sharing one pace (rate limit, pause after a 429), retrying only
// what is safe to retry, and journaling each step before it happens.

/** One record to send, read back from its `planned` entry in the journal. */
export interface SendEntry {
  /** Index of the record among the run's results. */
  index: number;
  key: string;
  /** An earlier run sent it without learning the outcome. */
  previouslySent: boolean;
  businessReference?: string;
  /** The body as JSON text, as journaled and sent. */
  bodyJson: string;
}

export interface SendOptions {
  kind: SendingKind;
  client: KindClient;
  journal: JournalWriter;
  /** The records to send, in order. */
  entries: AsyncIterable<SendEntry>;
  /** The run's results, indexed by `SendEntry.index`; each record sent gets its outcome here. */
  results: RecordResults;
  concurrency: number;
  /** Requests per second, at most. */
  rate?: number;
  retries: number;
  /** The longest Retry-After waited for (--max-retry-after); a longer one fails the record for this run. */
  maxRetryAfterMs?: number;
  /** Failures in a row that every record would meet after which the run stops (0: never). */
  stopAfterFailures?: number;
  /** Aborted on Ctrl-C: no record is started after it, and no retry; requests in flight finish. */
  signal?: AbortSignal;
  progress?: SendCounters;
  /** Receives the index of each record from its `sent` entry until its outcome: its request may be out. */
  sending?: Set<number>;
  /** Hears each record's outcome once it is journaled (the command keeps the merchant's ledger with it). */
  settled?: (entry: SendEntry, outcome: SettledRecord) => void;
}

/** What became of a record that was sent, as its journal entry says. */
export interface SettledRecord {
  status: 'created' | 'already-existed' | 'failed' | 'uncertain';
  invoiceNumber?: string;
  error?: string;
  /** The HTTP status of a failure the service answered. */
  httpStatus?: number;
  /** When this run sent it: its `sent` entry's instant. */
  sentAt: string;
  /** The sandbox state that answered, when the answer names one. */
  sandboxState?: string;
}

/** Live counters of the sending, for the progress display. */
export interface SendCounters {
  done: number;
  /** Records that failed, as the summary's "failed" counts them. */
  failed: number;
  /** Records sent with an unknown outcome, as the summary's "uncertain" counts them. */
  uncertain: number;
  retries: number;
}

/** Why sending stopped before the end, if it did. */
export interface SendOutcome {
  /** The service refused the token: no other record was started. */
  authError?: AuthError;
  /** The journal could not be written: no other record was started. */
  journalError?: Error;
  /** So many attempts in a row failed in a way every record would (the service is down) that the run stopped. */
  serviceDown?: { reason: string; failures: number };
  interrupted: boolean;
}

/** Sends every entry whose result is still pending; returns why it stopped early, if it did. */
export async function sendRecords(options: SendOptions): Promise<SendOutcome> {
  const { kind, client, journal, results, retries } = options;
  const counters = options.progress ?? { done: 0, failed: 0, uncertain: 0, retries: 0 };
  const pacer = new Pacer(options.rate);
  const stop = new AbortController();
  // Every worker waiting on a pause or a backoff listens to it.
  setMaxListeners(Math.max(10, 2 * options.concurrency), stop.signal);
  const outcome: SendOutcome = { interrupted: false };
  const maxRetryAfterMs = options.maxRetryAfterMs ?? Number.POSITIVE_INFINITY;
  const stopAfter = options.stopAfterFailures ?? 0;
  // Attempts that failed in a row, in the order they ended, in a way that no record can survive.
  let failedInARow = 0;
  const counted = (error: unknown) => {
    const reason = failsEveryRecord(error, maxRetryAfterMs);
    if (reason === undefined) {
      failedInARow = 0;
      return;
    }
    failedInARow += 1;
    if (stopAfter > 0 && failedInARow >= stopAfter && !outcome.serviceDown) {
      outcome.serviceDown = { reason, failures: failedInARow };
      stop.abort();
    }
  };
  // While the last attempt to end failed as every record would (no answer, no connection), one attempt at a time
  // goes out: each record sent into a silent service without a businessReference becomes uncertain, so no more than
  // the requests already in flight, and then one per probe, may meet that fate before the stop rule ends the run.
  let inFlight = 0;
  const waitingForAnAnswer: Array<() => void> = [];
  const wakeAll = () => {
    for (const wake of waitingForAnAnswer.splice(0)) wake();
  };
  stop.signal.addEventListener('abort', wakeAll, { once: true });
  /** Waits for its turn to send; false once the run stops. A true answer counts the attempt in flight. */
  const startAttempt = async (): Promise<boolean> => {
    while (failedInARow > 0 && inFlight > 0 && !stop.signal.aborted) {
      await new Promise<void>((resolve) => waitingForAnAnswer.push(resolve));
    }
    if (stop.signal.aborted) return false;
    // Counted in the same turn as the check, so two woken attempts cannot both see none in flight.
    inFlight += 1;
    return true;
  };
  const onInterrupt = () => {
    outcome.interrupted = true;
    stop.abort();
  };
  if (options.signal?.aborted) onInterrupt();
  options.signal?.addEventListener('abort', onInterrupt, { once: true });

  /** A journal that cannot be written stops the run: nothing more could be recorded. */
  const journalFailed = (error: unknown): false => {
    outcome.journalError ??= error as Error;
    stop.abort();
    return false;
  };
  /** Appends to the journal; false when the journal failed. */
  const journaled = (append: () => void): boolean => {
    try {
      append();
      return true;
    } catch (error) {
      return journalFailed(error);
    }
  };
  const record = (entry: JournalEntry) => journaled(() => journal.append(entry));

  const settle = (
    entry: SendEntry,
    sent: Sending,
    status: RecordStatus,
    detail: Partial<RecordResult>,
    failure?: unknown,
  ) => {
    results.update(entry.index, { status, ...detail });
    options.sending?.delete(entry.index);
    counters.done += 1;
    if (status === 'failed') counters.failed += 1;
    if (status === 'uncertain') counters.uncertain += 1;
    if (status === 'created' || status === 'already-existed') {
      record({
        type: 'created',
        key: entry.key,
        invoiceNumber: detail.invoiceNumber,
        ...(status === 'already-existed' ? { alreadyExisted: true } : {}),
        ...(sent.sandboxState !== undefined ? { sandboxState: sent.sandboxState } : {}),
      });
    } else if (status === 'failed') {
      const error = detail.error ?? 'failed';
      record({ type: 'failed', key: entry.key, error, ...serviceDetail(failure) });
    } else if (status === 'uncertain') {
      record({ type: 'uncertain', key: entry.key, error: detail.error ?? 'outcome unknown' });
    }
    if (status === 'created' || status === 'already-existed' || status === 'failed' || status === 'uncertain') {
      const { invoiceNumber, error } = detail;
      options.settled?.(entry, {
        status,
        invoiceNumber,
        error,
        httpStatus: serviceDetail(failure).status,
        sentAt: sent.at ?? new Date().toISOString(),
        ...(sent.sandboxState !== undefined ? { sandboxState: sent.sandboxState } : {}),
      });
    }
  };

  /**
   * One attempt at a record, once `startAttempt` allowed it; the first journals it before its request leaves.
   * Undefined when the journal failed (the request was not sent). The stop rule's count is updated before any
   * attempt waiting on it is woken.
   */
  const attempt = async (
    entry: SendEntry,
    sent: Sending,
    hasReference: boolean,
  ): Promise<{ invoiceNumber: string } | { error: unknown } | undefined> => {
    const first = sent.at === undefined;
    try {
      if (first) {
        const at = new Date().toISOString();
        if (!record({ type: 'sent', key: entry.key, at })) return undefined;
        sent.at = at;
        options.sending?.add(entry.index);
        // A record without a businessReference could be created twice by a resend, so its `sent` mark must be on
        // disk before the request leaves. One with a reference is refused as a duplicate if resent: no need to wait.
        if (!hasReference && !(await journal.durable().then(() => true, journalFailed))) {
          options.sending?.delete(entry.index);
          return undefined;
        }
      }
      try {
        const answer = await kind.send(client, entry.bodyJson);
        failedInARow = 0;
        sent.sandboxState = answer.sandboxState;
        return { invoiceNumber: answer.invoiceNumber };
      } catch (error) {
        counted(error);
        return { error };
      }
    } finally {
      inFlight -= 1;
      wakeAll();
    }
  };

  const sendOne = async (entry: SendEntry): Promise<void> => {
    const hasReference = kind.resendableByReference && entry.businessReference !== undefined;
    let mayHaveCreated = entry.previouslySent;
    const sent: Sending = {};
    const giveUp = (error: string, failure?: unknown) =>
      mayHaveCreated ? settle(entry, sent, 'uncertain', { error }) : settle(entry, sent, 'failed', { error }, failure);

    for (let attempts = 1; ; attempts++) {
      try {
        await pacer.wait(stop.signal);
      } catch {
        if (attempts === 1) return;
        return giveUp('stopped before its retry');
      }
      if (!(await startAttempt())) {
        if (attempts === 1) return;
        return giveUp('stopped before its retry');
      }
      const answer = await attempt(entry, sent, hasReference);
      if (answer === undefined) return;
      if ('invoiceNumber' in answer) return settle(entry, sent, 'created', { invoiceNumber: answer.invoiceNumber });
      const { error } = answer;
      // Whether an earlier attempt (of this run or an earlier one) may have created it, whatever this one says.
      const earlierAttemptMayHaveCreated = mayHaveCreated;
      const decision = decideRetry(error, {
        hasReference,
        attempts,
        retries,
        maxRetryAfterMs,
        rateLimitOnly: !kind.resendableByReference,
      });
      mayHaveCreated ||= decision.mayHaveCreated;
      const pause = rateLimitPauseMs(error, attempts, Math.random, maxRetryAfterMs);
      if (pause !== undefined) pacer.pause(pause);
      switch (decision.action) {
        case 'exists':
          return settle(entry, sent, 'already-existed', {
            invoiceNumber: decision.invoiceNumber,
            ...(earlierAttemptMayHaveCreated ? { afterLostAnswer: true } : {}),
          });
        case 'stop':
          if (error instanceof AuthError) outcome.authError ??= error;
          stop.abort();
          return giveUp(decision.reason, error);
        case 'fail':
        case 'uncertain':
          return giveUp(decision.reason, error);
        case 'retry':
          counters.retries += 1;
          try {
            await sleep(decision.delayMs, undefined, { signal: stop.signal });
          } catch {
            return giveUp(`stopped before its retry; last error: ${decision.reason}`, error);
          }
      }
    }
  };

  const iterator = options.entries[Symbol.asyncIterator]();
  const worker = async () => {
    while (!stop.signal.aborted) {
      const next = await iterator.next();
      if (next.done) return;
      if (results.status(next.value.index) === 'pending') await sendOne(next.value);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  } finally {
    options.signal?.removeEventListener('abort', onInterrupt);
    await iterator.return?.();
  }
  return outcome;
}

/** A record's sending in this run: when its `sent` entry was written, and the sandbox state that answered. */
interface Sending {
  at?: string;
  sandboxState?: string;
}

/** The HTTP status and service code of a failure, for the journal. */
function serviceDetail(error: unknown): { status?: number; code?: string } {
  if (error instanceof ServiceRejectedError) {
    return { status: error.status, ...(error.code !== undefined ? { code: error.code } : {}) };
  }
  if (error instanceof ServiceUnavailableError && error.status !== undefined) return { status: error.status };
  return {};
}
