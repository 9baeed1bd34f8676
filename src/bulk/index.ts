// The engine of a run over a file of many records, as the commands use it: the kinds of record, the run, and what a
// command shows of its end. Commands import src/bulk/ through this module only (.dependency-cruiser.cjs).

export { planBulk, type BulkRequest, type PlannedRun, type SendHooks } from './run.js';
export type { MerchantWord, RecordMark, Settled } from './merchant-word.js';
export { lookInLikelyEncoding, WrongEncodingError, type SecondLook } from './second-look.js';
export type { BulkKind, KindOptions, KindWords, LedgerLookup, RecordKindName } from './kind.js';
export { invoiceKind } from './record-check.js';
export { refundKind } from './refund-check.js';
export { journalFor, targetOf, type JournalPlace } from './journal-target.js';
export type { Plan, Shard } from './plan.js';
export type { SendEntry, SendOutcome, SettledRecord } from './send.js';
export { startProgress } from './progress.js';
export { unfinishedStatuses, type RecordResult, type RecordResults, type RecordStatus } from './results.js';
export { summarize, type BatchSummary } from './summary.js';
export { reportFormat, writeJsonReport, writeReport, type Numbered } from './report.js';
export { xmlText } from './report-junit.js';
export type { JournalEntry } from './journal.js';
