import type { FieldIssue } from '../errors.js';

// What happened to each record of a bulk run, as the summary, the report and --json tell it.

/** Where a record ended up. */
export type RecordStatus =
  /** Planned and waiting to be sent (only while the run is under way). */
  | 'pending'
  /** Created by this run. */
  | 'created'
  /** Created by an earlier run of the same journal; skipped. */
  | 'created-earlier'
  /** The service already held it (it answered that the invoice is a duplicate). */
  | 'already-existed'
  /** Not created; running the command again retries it. */
  | 'failed'
  /** Sent, outcome unknown: check it before sending it again. */
  | 'uncertain'
  /** Invalid: not sent. */
  | 'invalid'
  /** The same businessReference, amount and sendingDate as an earlier record of the file: not sent. */
  | 'duplicate'
  /** Changed since an earlier run sent it: not sent again. */
  | 'changed'
  /** Not sent: the run stopped first (interrupted, or the token was refused). */
  | 'not-sent'
  /** Valid and would be sent (--dry-run). */
  | 'valid';

/** One record's line in the report. */
export interface RecordResult {
  /** Position in the file, from 1. */
  record: number;
  line?: number;
  businessReference?: string;
  status: RecordStatus;
  invoiceNumber?: string;
  error?: string;
  issues?: FieldIssue[];
  /**
   * Already existed, found when sent again after an attempt of einvoice's (this run's or an earlier run's) whose answer
   * was lost: most likely that attempt created it.
   */
  afterLostAnswer?: boolean;
  /** For a duplicate: the record it repeats, and that record's line (its row, in a spreadsheet). */
  duplicateOf?: number;
  duplicateOfLine?: number;
}

/** The statuses that leave a record not created, so the run exits 6. */
export const unfinishedStatuses: ReadonlySet<RecordStatus> = new Set([
  'pending',
  'failed',
  'uncertain',
  'invalid',
  'changed',
  'not-sent',
]);
