import type { Violation } from './guarantees.ts';
import type { Trial } from './trial.ts';

// No output of einvoice holds the merchant's token.

/** The token is in no output of einvoice: its stdout and stderr, journals, reports, and the ledger's export. */
export function checkSecrets(trial: Trial): Violation[] {
  const outputs: Array<[string, string]> = [['the ledger export', trial.ledger]];
  for (const run of trial.runs) {
    outputs.push(
      [`the stdout of run ${run.run}`, run.stdout],
      [`the stderr of run ${run.run}`, run.stderr],
      [`the journal after run ${run.run}`, run.journal],
      [`the --report of run ${run.run}`, run.reportFile ?? ''],
    );
  }
  return outputs
    .filter(([, text]) => text.includes(trial.token))
    .map(([where, text]) => ({
      guarantee: 'no-secret' as const,
      subject: where,
      message: 'it holds the merchant token',
      evidence: text
        .split('\n')
        .filter((line) => line.includes(trial.token))
        .slice(0, 3)
        .map((line) => line.replaceAll(trial.token, '<TOKEN>')),
    }));
}
