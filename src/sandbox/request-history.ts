import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FaultKind } from '../schemas/sandbox-admin.js';
import type { RequestBody } from './http.js';
import { pathSegments } from './router.js';
import type { ReceivedRequest, RequestEnding } from './history-table.js';
import type { StateDraft, StateStore } from './store.js';

// The service's request history, as the server keeps it: each request to the service written as it arrives (so a
// reader sees the requests in flight) and again as it ends, with the fault it was given, whether it changed the
// state and what it was answered. The admin API's own requests are not in it: they are the tester's hand.

/** What the history learns of a request while it is handled. */
export interface Trace {
  body: RequestBody;
  fault?: FaultKind;
  /** The operation changed the state: its transaction committed. */
  committed: boolean;
  /** The invoice it created, or the one its path names. */
  invoiceNumber?: string;
}

/** The longest path the history keeps of a request. */
const maxPathLength = 200;

/** How long rows wait before another try when another process holds the state file's write lock. */
const retryMs = 50;

/** How a request ended: answered (with its status), its connection dropped, or held until the client left. */
export type Ending = { ended: 'answered'; status: number } | { ended: 'dropped' | 'hung' };

/** A request of the history as this process knows it: its row is written, or waits to be. */
export interface HistoryEntry {
  request: ReceivedRequest;
  ending?: RequestEnding;
  /** Its seq, once its row is in the table. */
  seq?: number;
}

/**
 * Records requests in `store`'s history. Rows are written at the end of the turn they come in, in one transaction
 * that never waits for another process (they wait for a later turn instead), so no request waits for its record.
 * A failure to record is reported, never a failure of a request.
 */
export function requestHistory(store: StateStore, failed: (error: unknown) => void) {
  const waiting = new Set<HistoryEntry>();
  let scheduled: NodeJS.Immediate | NodeJS.Timeout | undefined;

  /** Writes the rows waiting; when another process holds the file, tries again a little later, unless told to wait. */
  const flush = (wait = false): void => {
    scheduled = undefined;
    const batch = [...waiting];
    waiting.clear();
    if (batch.length === 0) return;
    const rows = (state: StateDraft) =>
      batch.map((entry) => {
        const seq = entry.seq ?? state.receiveRequest(entry.request);
        if (entry.ending) state.endRequest(seq, entry.ending);
        return seq;
      });
    let written: { value: number[] } | undefined;
    try {
      written = wait ? { value: store.write(rows) } : store.tryWrite(rows);
    } catch (error) {
      // Rows that cannot be written are let go: the history never stops the service.
      failed(error);
      return;
    }
    if (!written) {
      for (const entry of batch) waiting.add(entry);
      scheduled = setTimeout(flush, retryMs).unref();
      return;
    }
    written.value.forEach((seq, index) => {
      const entry = batch[index];
      if (entry) entry.seq = seq;
    });
  };
  const enqueue = (entry: HistoryEntry) => {
    waiting.add(entry);
    scheduled ??= setImmediate(flush).unref();
  };

  return {
    /** Records `req` as received, unless it is for the admin API. */
    received(req: IncomingMessage): HistoryEntry | undefined {
      if (pathSegments(req.url)?.[0] === '__sandbox') return undefined;
      const entry = {
        request: {
          receivedAt: new Date().toISOString(),
          method: (req.method ?? '?').slice(0, 16),
          path: (req.url ?? '?').slice(0, maxPathLength),
        },
      };
      enqueue(entry);
      return entry;
    },

    /** Records how the request of `entry` ended. */
    ended(entry: HistoryEntry | undefined, trace: Trace, ending: Ending): void {
      if (entry === undefined) return;
      const body = trace.body.read;
      entry.ending = {
        ...ending,
        endedAt: new Date().toISOString(),
        ...(body && body.length > 0
          ? { bodySha256: createHash('sha256').update(body).digest('hex'), bodyBytes: body.length }
          : {}),
        fault: trace.fault,
        committed: trace.committed,
        invoiceNumber: trace.invoiceNumber,
      };
      enqueue(entry);
    },

    /** Writes what waits, waiting for the file if it must: the sandbox is stopping. */
    close(): void {
      clearTimeout(scheduled as NodeJS.Timeout);
      clearImmediate(scheduled as NodeJS.Immediate);
      flush(true);
    },
  };
}
