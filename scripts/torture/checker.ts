import { reportOf, invoicesByNote, type RunReport } from './merchant.ts';
import type { Violation } from './guarantees.ts';
import { checkLedger } from './ledger-checks.ts';
import { checkSecrets } from './output-checks.ts';
import type { SandboxRequest } from './service.ts';
import type { RunLog, Trial } from './trial.ts';
import {
  createView,
  describeRequest,
  doneStatuses,
  lastStep,
  readJournal,
  refundView,
  type PhaseView,
} from './views.ts';

export { guarantees, type Guarantee, type Violation } from './guarantees.ts';

// The checker: reads what a seed did (every request the service received and what it did about it, its invoices,
// the journals, the reports and the ledger) and says whether each guarantee of docs/guarantees.md held. It judges
// whatever history happened, so the scheduling of the machine that ran it changes what it reads, never its verdict.

/**
 * What each status is counted under in a run's summary, as docs/bulk.md documents `--json`: written here rather than
 * taken from einvoice's code, so that a wrong count there cannot agree with itself.
 */
export const summaryKeys: Record<string, string> = {
  created: 'created',
  'created-earlier': 'createdEarlier',
  'already-existed': 'alreadyExisted',
  refunded: 'refunded',
  'refunded-earlier': 'refundedEarlier',
  failed: 'failed',
  uncertain: 'uncertain',
  invalid: 'invalid',
  duplicate: 'duplicatesInFile',
  changed: 'changed',
  'not-sent': 'notSent',
  valid: 'valid',
};

/** Checks every guarantee over what the seed did; returns each that did not hold. */
export function checkTrial(trial: Trial): Violation[] {
  const creates = createView(trial);
  const refunds = refundView(trial);
  const runOf = (seq: number) => trial.runs.find((run) => run.firstSeq <= seq && seq <= run.lastSeq)?.run;
  const shown: Shown = (request) => describeRequest(request, runOf(request.seq));
  return [
    ...checkOneInvoice(trial, creates, shown),
    ...checkResends(creates, shown),
    ...checkResends(refunds, shown),
    ...[creates, refunds].flatMap((view) => [
      ...checkOutcomes(trial, view, shown),
      ...checkResumes(view, shown),
      ...checkAnswersKept(view),
      ...checkMarks(trial, view, shown),
    ]),
    ...checkLedger(trial, creates, refunds),
    ...checkSecrets(trial),
  ];
}

/** Tells a request as a line of evidence. */
type Shown = (request: SandboxRequest) => string;

/** The service holds at most one invoice of each record, and einvoice sent none that is no record of the file. */
function checkOneInvoice(trial: Trial, view: PhaseView, shown: Shown): Violation[] {
  const violations: Violation[] = [];
  const byNote = invoicesByNote(trial.invoices);
  for (const record of trial.creates) {
    const found = byNote.get(record.note) ?? [];
    if (found.length <= 1) continue;
    violations.push({
      guarantee: 'one-invoice',
      subject: view.name(record.record),
      message: `the service holds ${found.length} invoices of it: ${found.map((invoice) => invoice.invoiceNumber).join(', ')}`,
      evidence: (view.requests.get(record.record) ?? []).map(shown),
    });
  }
  for (const stray of view.strays) {
    violations.push({
      guarantee: 'one-invoice',
      subject: `request #${stray.seq}`,
      message: 'einvoice sent an invoice that is no record of the file as its journal planned it',
      evidence: [shown(stray)],
    });
  }
  return violations;
}

/**
 * No request for a record the service cannot tell apart from a second one (a refund; an invoice without a
 * businessReference) after one that may have been carried out, without the merchant's word between them: a 4xx said
 * it was not done (a 429: not taken), and for an invoice a 503 too (the sandbox's says when to come back); anything
 * else may have been done. The merchant's "not done" allows one request more, not two.
 */
function checkResends(view: PhaseView, shown: Shown): Violation[] {
  const violations: Violation[] = [];
  for (const [record, requests] of view.requests) {
    if (view.resendable(record)) continue;
    for (let index = 1; index < requests.length; index++) {
      const earlier = requests[index - 1]!;
      const later = requests[index]!;
      const answered = earlier.ended === 'answered' && earlier.status !== null;
      const answeredNotDone =
        answered &&
        ((earlier.status! >= 400 && earlier.status! < 500) || (view.phase === 'create' && earlier.status === 503));
      const saidNoBetween = (from: number, to: number) =>
        view.runs.some(
          (run) =>
            run.firstSeq > from && run.firstSeq <= to && run.marks.some((mark) => mark.record === record && !mark.done),
        );
      if (answeredNotDone || saidNoBetween(earlier.seq, later.seq)) continue;
      const marked = saidNoBetween(0, later.seq);
      violations.push({
        guarantee: view.phase === 'refund' ? 'no-refund-resend' : marked ? 'marks-kept' : 'one-invoice',
        subject: view.name(record),
        message: `request #${later.seq} ${view.phase === 'refund' ? 'refunds' : 'sends'} it again after #${earlier.seq}, which may have been carried out${marked ? ', with no word of the merchant since' : ''}`,
        evidence: requests.map(shown),
      });
      break;
    }
  }
  return violations;
}

/** Each run's report holds every record once, in one outcome, and each outcome is true. */
function checkOutcomes(trial: Trial, view: PhaseView, shown: Shown): Violation[] {
  const violations: Violation[] = [];
  for (const run of view.runs) {
    const report = reportOf(run.stdout);
    const subject = `${view.phase} run ${run.run}`;
    const fail = (message: string, evidence: string[] = []) =>
      violations.push({ guarantee: 'true-outcome', subject, message, evidence });
    if (!report) {
      // A run killed with -9 prints nothing; any other prints its whole report.
      if (run.signal !== 'SIGKILL') fail('it printed no whole --json report');
      continue;
    }
    const numbers = report.records.map((record) => record.record).sort((a, b) => a - b);
    const expected = Array.from({ length: view.count }, (_, index) => index + 1);
    if (numbers.join() !== expected.join()) {
      fail(`its report holds the records ${numbers.join(', ')}, not each of 1 to ${view.count} once`);
    }
    for (const [status, key] of Object.entries(summaryKeys)) {
      const counted = report.records.filter((record) => record.status === status).length;
      const summed = report.summary[key];
      if ((summed ?? 0) !== counted && !(status === 'valid' && counted === 0)) {
        fail(`its summary counts ${String(summed)} ${key}, its records ${counted}`);
      }
    }
    if (report.summary.total !== view.count) fail(`its summary counts ${String(report.summary.total)} records in all`);
    if (run.reportFile !== undefined) {
      const lines = run.reportFile
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as unknown);
      if (JSON.stringify(lines) !== JSON.stringify(report.records)) fail('its --report file differs from its --json');
    }
    const allDone = report.records.every((record) => doneStatuses.has(record.status));
    if (run.exitCode === 0 && !allDone) fail('it exited 0 with records not done');
    // A stopped run may end 130 or 143 even when every record was done by then.
    if (run.exitCode !== 0 && allDone && !run.stopped) fail(`it exited ${run.exitCode} with every record done`);
    for (const record of report.records) {
      const untrue = untrueOutcome(view, run, record, trial);
      if (untrue) {
        violations.push({
          guarantee: 'true-outcome',
          subject: view.name(record.record),
          message: `${subject} says "${record.status}"${record.invoiceNumber ? ` (${record.invoiceNumber})` : ''}, but ${untrue}`,
          evidence: (view.requests.get(record.record) ?? []).map(shown),
        });
      }
    }
  }
  return violations;
}

/** Why the outcome a run reported for a record is not true, or undefined when it is. */
function untrueOutcome(
  view: PhaseView,
  run: RunLog,
  record: RunReport['records'][number],
  trial: Trial,
): string | undefined {
  const requests = view.requests.get(record.record) ?? [];
  const ofThisRun = requests.filter((request) => request.seq >= run.firstSeq && request.seq <= run.lastSeq);
  switch (record.status) {
    case 'created':
    case 'created-earlier':
    case 'already-existed': {
      const note = trial.creates[record.record - 1]?.note ?? '';
      const held = invoicesByNote(run.truth).get(note) ?? [];
      if (held.length === 0) return 'the service holds no invoice of it';
      if (
        record.invoiceNumber !== undefined &&
        !held.some((invoice) => invoice.invoiceNumber === record.invoiceNumber)
      ) {
        return `the service holds it as ${held.map((invoice) => invoice.invoiceNumber).join(', ')}`;
      }
      return undefined;
    }
    case 'refunded':
    case 'refunded-earlier': {
      const refund = trial.refunds[record.record - 1];
      const invoice = run.truth.find((candidate) => candidate.invoiceNumber === refund?.invoiceNumber);
      if (invoice?.status !== 'REFUNDED') return `the service holds the invoice ${invoice?.status ?? 'nowhere'}`;
      if (invoice.refunds[0]?.amount !== Number(refund?.amount)) return 'the service refunded another amount';
      return undefined;
    }
    case 'failed':
      return view.done(record.record, run.truth) ? 'the service holds it done' : undefined;
    case 'uncertain':
      // It claims only that its request may have left, which a journal's `sent` mark says before it does.
      return undefined;
    case 'not-sent':
      return ofThisRun.length > 0 ? `it was sent (request #${ofThisRun[0]!.seq})` : undefined;
    default:
      return 'no record of the file is any of invalid, duplicate, changed or valid';
  }
}

/** A run sends nothing an earlier run finished: once its journal holds a record done, no request is for it. */
function checkResumes(view: PhaseView, shown: Shown): Violation[] {
  const violations: Violation[] = [];
  for (const [record, requests] of view.requests) {
    const finishedBy = view.runs.find((run) => lastStep(run, record) === 'created');
    if (!finishedBy) continue;
    const after = requests.filter((request) => request.seq > finishedBy.lastSeq);
    if (after.length === 0) continue;
    violations.push({
      guarantee: 'no-resend-after-done',
      subject: view.name(record),
      message: `${view.phase} run ${finishedBy.run} finished it (its journal says so), and request #${after[0]!.seq} sent it again`,
      evidence: requests.map(shown),
    });
  }
  return violations;
}

/** Once a run (or its journal) holds a record done, no later one calls it uncertain, failed or not sent. */
function checkAnswersKept(view: PhaseView): Violation[] {
  const violations: Violation[] = [];
  for (let record = 1; record <= view.count; record++) {
    let doneIn: string | undefined;
    for (const run of view.runs) {
      const reported = reportOf(run.stdout)?.records.find((entry) => entry.record === record)?.status;
      const steps = readJournal(run.journal).steps.get(record) ?? [];
      const afterDone = steps.slice(steps.indexOf('created') + 1);
      if (steps.includes('created') && afterDone.some((step) => step === 'uncertain' || step === 'failed')) {
        violations.push({
          guarantee: 'answer-kept',
          subject: view.name(record),
          message: `the journal of ${view.phase} run ${run.run} holds it created, then ${afterDone.join(', then ')}`,
          evidence: [],
        });
        break;
      }
      if (doneIn && reported !== undefined && !doneStatuses.has(reported)) {
        violations.push({
          guarantee: 'answer-kept',
          subject: view.name(record),
          message: `${doneIn} had it done, and ${view.phase} run ${run.run} says "${reported}"`,
          evidence: [],
        });
        break;
      }
      if ((reported && doneStatuses.has(reported)) || steps.at(-1) === 'created') {
        doneIn ??= `${view.phase} run ${run.run}`;
      }
    }
  }
  return violations;
}

/** A record the merchant marked done is never sent again and stays done; one marked not done is no longer uncertain. */
function checkMarks(trial: Trial, view: PhaseView, shown: Shown): Violation[] {
  const violations: Violation[] = [];
  for (const run of view.runs) {
    for (const mark of run.marks) {
      const requests = view.requests.get(mark.record) ?? [];
      const later = view.runs.filter((other) => other.run >= run.run);
      const fail = (message: string) =>
        violations.push({
          guarantee: 'marks-kept',
          subject: view.name(mark.record),
          message: `${mark.flag.join(' ')} was given to ${view.phase} run ${run.run}, and ${message}`,
          evidence: requests.map(shown),
        });
      if (mark.done) {
        const sent = requests.find((request) => request.seq >= run.firstSeq);
        if (sent) fail(`request #${sent.seq} sent it again`);
        const statusIn = (other: RunLog) =>
          reportOf(other.stdout)?.records.find((record) => record.record === mark.record)?.status;
        const undone = later.find((other) => !doneStatuses.has(statusIn(other) ?? 'created'));
        if (undone) fail(`${view.phase} run ${undone.run} says "${statusIn(undone)}"`);
        continue;
      }
      const status = reportOf(run.stdout)?.records.find((record) => record.record === mark.record)?.status;
      const sentNow = requests.some((request) => request.seq >= run.firstSeq && request.seq <= run.lastSeq);
      // Sent once more, unless the run stopped before its turn (it says "not sent") or was killed.
      if (!sentNow && status !== 'not-sent' && run.signal === null)
        fail(`it was not sent again ("${status ?? 'no report'}")`);
    }
  }
  if (trial.unfinished) return violations;
  // In the end, what the merchant marked is what the service holds.
  for (const run of view.runs) {
    for (const mark of run.marks) {
      if (!view.done(mark.record, trial.invoices)) {
        violations.push({
          guarantee: 'marks-kept',
          subject: view.name(mark.record),
          message: `after ${mark.flag.join(' ')} the seed ended without it done at the service`,
          evidence: [],
        });
      }
    }
  }
  return violations;
}
