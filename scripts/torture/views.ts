import { createHash } from 'node:crypto';
import { invoicesByNote, reportOf } from './merchant.ts';
import type { Phase } from './scenario.ts';
import type { SandboxRequest, ServiceInvoice } from './service.ts';
import type { RunLog, Trial } from './trial.ts';

// How the checker reads a seed: each request of einvoice tied to the record it is for (an invoice by the hash of its
// body, as its journal planned it; a refund by the invoice its path names), the journals' entries by record, and
// each request told in a line of evidence.

/** The statuses of a record that say it is done. */
export const doneStatuses = new Set(['created', 'created-earlier', 'already-existed', 'refunded', 'refunded-earlier']);

/** The journal of a run as the checker reads it: each record's key, the hash of its body, its last state. */
export interface JournalView {
  recordOfKey: Map<string, number>;
  recordOfBody: Map<string, number>;
  /** Each record's entries after its plan, in order (`sent`, `created`, `failed`, `uncertain`). */
  steps: Map<number, string[]>;
}

/** Reads a journal's text. */
export function readJournal(text: string): JournalView {
  const view: JournalView = { recordOfKey: new Map(), recordOfBody: new Map(), steps: new Map() };
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    let entry: { type?: string; key?: string; record?: number };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if (entry.type === 'planned' && entry.key !== undefined && entry.record !== undefined) {
      view.recordOfKey.set(entry.key, entry.record);
      // The body is the entry's last field, written as it is sent.
      const body = line.slice(line.indexOf(',"body":') + ',"body":'.length, -1);
      view.recordOfBody.set(sha256(body), entry.record);
      continue;
    }
    const record = entry.key === undefined ? undefined : view.recordOfKey.get(entry.key);
    if (record !== undefined && entry.type) view.steps.set(record, [...(view.steps.get(record) ?? []), entry.type]);
  }
  return view;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What the checker knows of one phase (the creates, or the refunds). */
export interface PhaseView {
  phase: Phase;
  runs: RunLog[];
  count: number;
  /** The requests of the phase made by einvoice, by record, in the order received. */
  requests: Map<number, SandboxRequest[]>;
  /** Requests einvoice made that are of no record of the file. */
  strays: SandboxRequest[];
  /** The record in the merchant's words. */
  name(record: number): string;
  /** Whether the service holds the record done, in `invoices`. */
  done(record: number, invoices: ServiceInvoice[]): boolean;
  /** Whether the service refuses a second one of the record (an invoice with a businessReference), so a resend is safe. */
  resendable(record: number): boolean;
}

/** The creates of a trial: records known by the hash of their body, as their journal planned it. */
export function createView(trial: Trial): PhaseView {
  const runs = trial.runs.filter((run) => run.phase === 'create');
  const journal = readJournal(runs.at(-1)?.journal ?? '');
  const requests = new Map<number, SandboxRequest[]>();
  const strays: SandboxRequest[] = [];
  for (const request of trial.history) {
    if (request.seq <= trial.setupSeq || request.method !== 'POST' || !request.path.endsWith('/invoices/single'))
      continue;
    const record = request.bodySha256 === null ? undefined : journal.recordOfBody.get(request.bodySha256);
    if (record === undefined) strays.push(request);
    else requests.set(record, [...(requests.get(record) ?? []), request]);
  }
  return {
    phase: 'create',
    runs,
    count: trial.creates.length,
    requests,
    strays,
    name: (record) => {
      const { businessReference } = trial.creates[record - 1] ?? {};
      return `invoice record ${record}${businessReference ? ` (${businessReference})` : ' (no businessReference)'}`;
    },
    done: (record, invoices) => (invoicesByNote(invoices).get(trial.creates[record - 1]?.note ?? '') ?? []).length > 0,
    resendable: (record) =>
      trial.creates[record - 1]?.businessReference !== undefined ||
      runs.some((run) => run.args.includes('--reference-prefix')),
  };
}

/** The refunds of a trial: records known by the invoice their path names. */
export function refundView(trial: Trial): PhaseView {
  const runs = trial.runs.filter((run) => run.phase === 'refund');
  const recordOf = new Map(trial.refunds.map((refund) => [refund.invoiceNumber, refund.record]));
  const requests = new Map<number, SandboxRequest[]>();
  for (const request of trial.history) {
    if (request.seq <= trial.setupSeq || request.method !== 'POST' || !request.path.endsWith('/refund')) continue;
    const record = recordOf.get(request.invoiceNumber ?? '');
    if (record !== undefined) requests.set(record, [...(requests.get(record) ?? []), request]);
  }
  return {
    phase: 'refund',
    runs,
    count: trial.refunds.length,
    requests,
    strays: [],
    name: (record) => `refund record ${record} (invoice ${trial.refunds[record - 1]?.invoiceNumber})`,
    done: (record, invoices) =>
      invoices.find((invoice) => invoice.invoiceNumber === trial.refunds[record - 1]?.invoiceNumber)?.status ===
      'REFUNDED',
    resendable: () => false,
  };
}
/** The last entry a run's journal holds of `record`. */
export function lastStep(run: RunLog, record: number): string | undefined {
  return readJournal(run.journal).steps.get(record)?.at(-1);
}
/** The merchant marked the record (done or not). */
export function isMarked(view: PhaseView, record: number): boolean {
  return view.runs.some((run) => run.marks.some((mark) => mark.record === record));
}

/** The last run that reported the record has it done: einvoice knows its answer. */
export function isSettled(view: PhaseView, record: number): boolean {
  for (const run of [...view.runs].reverse()) {
    const status = reportOf(run.stdout)?.records.find((entry) => entry.record === record)?.status;
    if (status !== undefined) return doneStatuses.has(status);
  }
  return false;
}
/** One request as evidence: `#12 (run 2) POST /invoice-api/invoices/single body 5eacbe4b: drop-after-commit, committed, dropped`. */
export function describeRequest(request: SandboxRequest, run: number | undefined): string {
  const what = [
    request.fault ? `fault ${request.fault}` : 'no fault',
    request.committed ? 'committed' : 'not committed',
    request.ended === 'answered' ? `answered ${request.status}` : request.ended,
    ...(request.invoiceNumber ? [`invoice ${request.invoiceNumber}`] : []),
  ];
  const body = request.bodySha256 ? ` body ${request.bodySha256.slice(0, 8)}` : '';
  return `#${request.seq} (${run === undefined ? 'outside the runs' : `run ${run}`}) ${request.method} ${request.path}${body}: ${what.join(', ')}`;
}
