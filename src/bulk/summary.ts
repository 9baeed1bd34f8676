import type { KindWords, RecordKindName } from './kind.js';
import type { ResumeCounts } from './plan.js';
import type { RecordResults, RecordStatus } from './results.js';

// The counts of a bulk run, for stderr and for --json.

/** The outcome of a bulk run in numbers. */
export interface BatchSummary {
  kind: RecordKindName;
  /** How the kind speaks of its records: the outputs' words (not a count, and not in --json). */
  words: KindWords;
  environment: string;
  dryRun: boolean;
  /** Records of the file (of the shard, with --shard). */
  total: number;
  created: number;
  /** Created by an earlier run of the same journal. */
  createdEarlier: number;
  /** The service already held them. */
  alreadyExisted: number;
  /** Of those, found after an attempt of einvoice's whose answer was lost: most likely that attempt created them. */
  alreadyExistedAfterLostAnswer: number;
  failed: number;
  uncertain: number;
  invalid: number;
  /** Records that repeat an earlier record of the file (rule 2.3.2); absent for a kind without a reference (refunds). */
  duplicatesInFile?: number;
  changed: number;
  notSent: number;
  /** Valid and not yet created (--dry-run). */
  valid: number;
  durationMs: number;
  /** Records sent although their expiry had passed (--allow-expired); absent when none. */
  alreadyExpired?: number;
  /** Records with a warning (see each record's `warnings`). */
  withWarnings: number;
  /** Records sent (or, in a dry run, to send) without a businessReference; absent when none. */
  withoutReference?: number;
  /** The warnings of the run as a whole, not of one record (dates read in this machine's zone, ...); absent when none. */
  warnings?: string[];
  journal?: string;
  shard?: string;
  resume?: ResumeCounts;
}

const fieldOf: Record<RecordStatus, keyof BatchSummary | undefined> = {
  pending: 'notSent',
  created: 'created',
  'created-earlier': 'createdEarlier',
  'already-existed': 'alreadyExisted',
  failed: 'failed',
  uncertain: 'uncertain',
  invalid: 'invalid',
  duplicate: 'duplicatesInFile',
  changed: 'changed',
  'not-sent': 'notSent',
  valid: 'valid',
};

/** Counts the results. */
export function summarize(
  results: RecordResults,
  about: Pick<
    BatchSummary,
    | 'kind'
    | 'words'
    | 'environment'
    | 'dryRun'
    | 'durationMs'
    | 'journal'
    | 'shard'
    | 'resume'
    | 'alreadyExpired'
    | 'withoutReference'
    | 'warnings'
  >,
): BatchSummary {
  const summary: BatchSummary = {
    kind: about.kind,
    words: about.words,
    environment: about.environment,
    dryRun: about.dryRun,
    total: results.length,
    created: 0,
    createdEarlier: 0,
    alreadyExisted: 0,
    alreadyExistedAfterLostAnswer: 0,
    failed: 0,
    uncertain: 0,
    invalid: 0,
    // Records repeat one another only by a reference: a kind without one (a refund) has no such count.
    ...(about.words.reference === undefined ? {} : { duplicatesInFile: 0 }),
    changed: 0,
    notSent: 0,
    valid: 0,
    durationMs: about.durationMs,
    ...(about.alreadyExpired ? { alreadyExpired: about.alreadyExpired } : {}),
    withWarnings: 0,
    ...(about.withoutReference ? { withoutReference: about.withoutReference } : {}),
    ...(about.warnings && about.warnings.length > 0 ? { warnings: about.warnings } : {}),
    ...(about.journal ? { journal: about.journal } : {}),
    ...(about.shard ? { shard: about.shard } : {}),
    ...(about.resume ? { resume: about.resume } : {}),
  };
  for (const [status, field] of Object.entries(fieldOf) as Array<[RecordStatus, keyof BatchSummary | undefined]>) {
    if (field && summary[field] !== undefined) (summary[field] as number) += results.count(status);
  }
  summary.withWarnings = results.countWithWarnings();
  summary.alreadyExistedAfterLostAnswer = results
    .withStatus('already-existed')
    .filter((result) => result.afterLostAnswer).length;
  return summary;
}
