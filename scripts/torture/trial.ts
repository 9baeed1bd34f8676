import type { Phase } from './scenario.ts';
import type { SandboxRequest, ServiceInvoice } from './service.ts';
import type { CreateRecord, RefundRecord } from './workload.ts';

// What a seed leaves for the checker: the workload, each run of einvoice with what the merchant said to it and what
// it printed and wrote, and the service's side: every request it received and the invoices it holds.

/** The merchant's word on one uncertain record, given to a run as a flag. */
export interface Mark {
  /** The record of its file (from 1). */
  record: number;
  /** It was done (created, refunded), as the merchant found it in the dashboard; else it was not. */
  done: boolean;
  /** The flag and its value, as given. */
  flag: [string, string];
}

/** One run of einvoice over a file. */
export interface RunLog {
  phase: Phase;
  /** Its place among the seed's runs, from 1. */
  run: number;
  args: string[];
  marks: Mark[];
  /** Stopped by a signal once the service had received this many of its requests. */
  stopped?: { signal: 'SIGKILL' | 'SIGTERM'; afterRequests: number };
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** The requests of this run: those with a seq from `firstSeq` to `lastSeq`. */
  firstSeq: number;
  lastSeq: number;
  /** The journal once the run ended. */
  journal: string;
  /** Its --report file, when it wrote one. */
  reportFile?: string;
  /** The invoices the service held once the run's requests had all ended. */
  truth: ServiceInvoice[];
}

/** Everything a seed did and saw. */
export interface Trial {
  seed: number;
  /** The merchant's token: no output may hold it. */
  token: string;
  creates: CreateRecord[];
  /** The create file's name, as the ledger names a record's source (`invoices.csv:4`). */
  createFile: string;
  refunds: RefundRecord[];
  runs: RunLog[];
  /** Every request the service received, in the order received. */
  history: SandboxRequest[];
  /** The seq of the last request the rig made itself, setting the seed up (the invoices it pays). */
  setupSeq: number;
  /** The invoices the service held at the end. */
  invoices: ServiceInvoice[];
  /** `einvoice invoices export --format ndjson` at the end. */
  ledger: string;
  /** The seed did not end: why. */
  unfinished?: string;
}
