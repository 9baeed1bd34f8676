import type { FaultKind, SandboxRequest } from '../schemas/sandbox-admin.js';
import type { Database, Row } from './database.js';

// The table of the service's request history (database.ts holds its schema). Bounded: a sandbox that serves for
// months keeps the newest requests, and each new one costs the same however many came before.

/** The most requests the history keeps; past it, the oldest is let go as each new one comes. */
export const requestHistoryLimit = 20_000;

/** A request as it arrives. */
export interface ReceivedRequest {
  receivedAt: string;
  method: string;
  path: string;
}

/** How a request ended, and what it did. */
export interface RequestEnding {
  endedAt: string;
  ended: 'answered' | 'dropped' | 'hung';
  bodySha256?: string;
  bodyBytes?: number;
  fault?: FaultKind;
  committed: boolean;
  /** The status answered, when there was an answer. */
  status?: number;
  invoiceNumber?: string;
}

/** A page of the history, and the cursor of the next page when there is one. */
export interface RequestPage {
  requests: SandboxRequest[];
  next?: string;
}

/** Reads and writes the `requests` table; each call runs within the caller's transaction. */
export class HistoryTable {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Records a request as received, in flight; returns its seq. */
  receive(request: ReceivedRequest): number {
    const { lastInsertRowid } = this.#db.run(
      "INSERT INTO requests (received_at, method, path, ended) VALUES (?, ?, ?, 'in-flight')",
      request.receivedAt,
      request.method,
      request.path,
    );
    const seq = Number(lastInsertRowid);
    // One row in, one row out once the history is full: a delete on the primary key, the same cost at any size.
    this.#db.run('DELETE FROM requests WHERE seq <= ?', seq - requestHistoryLimit);
    return seq;
  }

  /** Records how the request `seq` ended. */
  end(seq: number, ending: RequestEnding): void {
    this.#db.run(
      `UPDATE requests SET ended_at = ?, ended = ?, body_sha256 = ?, body_bytes = ?, fault = ?, committed = ?,
                           status = ?, invoice_number = ?
        WHERE seq = ?`,
      ending.endedAt,
      ending.ended,
      ending.bodySha256 ?? null,
      ending.bodyBytes ?? null,
      ending.fault ?? null,
      ending.committed ? 1 : 0,
      ending.status ?? null,
      ending.invoiceNumber ?? null,
      seq,
    );
  }

  /** The requests in the order received, or a page of `limit` after the seq `after`. */
  page(page: { limit?: number; after?: number } = {}): RequestPage {
    const limit = page.limit ?? -1;
    const rows = this.#db.all(
      'SELECT * FROM requests WHERE seq > ? ORDER BY seq LIMIT ?',
      page.after ?? 0,
      limit < 0 ? -1 : limit + 1,
    );
    const requests = rows.map(requestOf);
    if (limit < 0 || requests.length <= limit) return { requests };
    const kept = requests.slice(0, limit);
    return { requests: kept, next: String(kept.at(-1)?.seq) };
  }

  clear(): void {
    this.#db.run('DELETE FROM requests');
  }
}

/** A row of the table as the admin API shows it. */
export function requestOf(row: Row): SandboxRequest {
  const committed = row.committed as number | null;
  return {
    seq: Number(row.seq),
    receivedAt: row.received_at as string,
    endedAt: (row.ended_at as string | null) ?? null,
    method: row.method as string,
    path: row.path as string,
    bodySha256: (row.body_sha256 as string | null) ?? null,
    bodyBytes: row.body_bytes === null ? null : Number(row.body_bytes),
    fault: (row.fault as FaultKind | null) ?? null,
    committed: committed === null ? null : committed === 1,
    status: row.status === null ? null : Number(row.status),
    ended: row.ended as SandboxRequest['ended'],
    invoiceNumber: (row.invoice_number as string | null) ?? null,
  };
}
