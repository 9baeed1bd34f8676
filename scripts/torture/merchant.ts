import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Phase } from './scenario.ts';
import type { Service, ServiceInvoice } from './service.ts';
import type { Mark } from './trial.ts';
import type { CreateRecord, RefundRecord } from './workload.ts';

// The merchant: runs einvoice as a merchant's CI job would (and stops it as a cancelled job or a lost machine
// would), and when a run asks for the merchant's word on a record it cannot know about, looks at the service's truth
// as a merchant looks at the dashboard and gives it.

/** How a run of einvoice ended. */
export interface Ended {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** The signal was sent (the run had not ended before the service received its requests). */
  stopped: boolean;
}

/** When to stop a run: once the service has received `afterRequests` requests after the seq `after`. */
export interface StopAt {
  signal: 'SIGKILL' | 'SIGTERM';
  afterRequests: number;
  after: number;
  service: Service;
}

/** Runs `einvoice ...args`; stops it with a signal when `stopAt` says, watching the service's request history. */
export async function runEinvoice(
  command: [string, string[]],
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stopAt?: StopAt },
): Promise<Ended> {
  const [file, prefix] = command;
  const child = spawn(file, [...prefix, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  let stopped = false;
  const { stopAt } = options;
  if (stopAt) {
    let running = true;
    void exited.then(() => (running = false));
    // The moment is what the service has received, never a time: the same seed stops at the same request.
    while (running) {
      const received = await stopAt.service.requests(stopAt.after).catch(() => []);
      if (received.length >= stopAt.afterRequests) {
        stopped = child.kill(stopAt.signal);
        break;
      }
      await sleep(2);
    }
  }
  const [exitCode, signal] = await exited;
  return { exitCode, signal, stdout, stderr, stopped };
}

/** A run's `--json` document, when it printed one whole. */
export interface RunReport {
  summary: Record<string, unknown>;
  records: Array<{
    record: number;
    row?: number;
    line?: number;
    status: string;
    invoiceNumber?: string;
    businessReference?: string | null;
    error?: string;
  }>;
}

/** The `--json` document on stdout, or undefined when the run printed none whole (it was killed). */
export function reportOf(stdout: string): RunReport | undefined {
  try {
    const report = JSON.parse(stdout) as RunReport;
    return Array.isArray(report.records) ? report : undefined;
  } catch {
    return undefined;
  }
}

/** The merchant's word for the next run. */
export interface Word {
  marks: Mark[];
}

/** The invoices of the service by the note each carries (the workload gives each record its own). */
export function invoicesByNote(invoices: ServiceInvoice[]): Map<string, ServiceInvoice[]> {
  const byNote = new Map<string, ServiceInvoice[]>();
  for (const invoice of invoices) {
    const note = invoice.request.note;
    if (typeof note !== 'string') continue;
    byNote.set(note, [...(byNote.get(note) ?? []), invoice]);
  }
  return byNote;
}

/**
 * What the merchant says after a run: for each uncertain record a rerun will not send on its own (every refund, an
 * invoice without a businessReference), whether the dashboard (`truth`) shows it done, by the name the run lists it
 * by (a refund's invoice, an invoice's row or line).
 */
export function merchantWord(
  phase: Phase,
  report: RunReport | undefined,
  truth: ServiceInvoice[],
  workload: { creates: CreateRecord[]; refunds: RefundRecord[] },
): Word {
  const uncertain = (report?.records ?? []).filter((record) => record.status === 'uncertain');
  if (phase === 'refund') {
    const marks = uncertain.map((record): Mark => {
      const refund = workload.refunds[record.record - 1]!;
      const invoice = truth.find((candidate) => candidate.invoiceNumber === refund.invoiceNumber);
      const done = invoice?.status === 'REFUNDED';
      return {
        record: record.record,
        done,
        flag: [done ? '--mark-refunded' : '--mark-not-refunded', refund.invoiceNumber],
      };
    });
    return { marks };
  }
  const byNote = invoicesByNote(truth);
  const marks = uncertain
    .filter((record) => !record.businessReference)
    .map((record): Mark => {
      const done = (byNote.get(workload.creates[record.record - 1]!.note) ?? []).length > 0;
      const row = String(record.row ?? record.line ?? record.record);
      return { record: record.record, done, flag: [done ? '--mark-created' : '--mark-not-created', row] };
    });
  return { marks };
}
