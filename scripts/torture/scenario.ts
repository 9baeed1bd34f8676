import { Dice } from './dice.ts';

// What one seed runs: the workload, the faults of the service, how einvoice sends, and where a run is stopped. All
// of it follows from the seed, so `--seed S` replays the same scenario.

export type SheetFormat = 'csv' | 'ndjson' | 'xlsx';
export type FaultKind = '500' | '503' | '429' | 'drop' | 'drop-after-commit' | 'hang';
export type Phase = 'create' | 'refund';

export interface Scenario {
  seed: number;
  creates: {
    count: number;
    format: SheetFormat;
    /** The records (from 1) without a businessReference. */
    withoutReference: number[];
    /** `--reference-prefix`: every record gets a reference from its content. */
    referencePrefix: boolean;
  };
  refunds: {
    /** Refunds of invoices paid before the runs (made by the rig, as the dashboard would). */
    count: number;
    /** Records of the create file whose invoice is paid, then refunded too (when the creates made it). */
    ofCreates: number[];
    format: SheetFormat;
    /** The refunds (from 1) of part of their invoice's amount. */
    partial: number[];
  };
  faults: { rates: Partial<Record<FaultKind, number>>; latencyMs: number; seed: number };
  sending: {
    concurrency: number;
    rate?: number;
    retries: number;
    timeoutSeconds: number;
    stopAfterFailures?: number;
  };
  /** Refunds under `--strict`: a warning holds one back (a refund the ledger shows made, or of more than invoiced). */
  strict: boolean;
  /** The merchant runs a job again as it is once (a CI job's retry) before looking at what a run asks about. */
  hastyMerchant: boolean;
  /** A run stopped by a signal once the service has received `afterRequests` requests of it. */
  kill?: { phase: Phase; signal: 'SIGKILL' | 'SIGTERM'; afterRequests: number };
}

/** Each fault a seed may inject: how likely a seed is to inject it, and its rate when it does. */
const weather: Array<[FaultKind, number, number, number]> = [
  ['503', 0.6, 0.02, 0.1],
  ['500', 0.5, 0.02, 0.08],
  // Each 429 pauses the whole run for its Retry-After (1 s), and each hang lasts a time-out.
  ['429', 0.3, 0.01, 0.03],
  ['drop', 0.5, 0.02, 0.08],
  ['drop-after-commit', 0.7, 0.03, 0.12],
  ['hang', 0.3, 0.01, 0.04],
];

/** The scenario of `seed`. */
export function scenarioFor(seed: number): Scenario {
  const dice = new Dice(seed);
  const creates = dice.int('creates', 6, 24);
  const referenceless = dice.pick('referenceless share', [0, 0.25, 0.5, 0.5]);
  const refunds = dice.int('refunds', 2, 8);
  const rates: Partial<Record<FaultKind, number>> = {};
  for (const [kind, likelihood, low, high] of weather) {
    if (dice.chance(`fault ${kind}`, likelihood)) {
      rates[kind] = Math.round((low + (high - low) * dice.number(`rate ${kind}`)) * 100) / 100;
    }
  }
  const killed = dice.chance('kill', 0.65);
  const killPhase = dice.chance('kill phase', 0.6) ? 'create' : 'refund';
  return {
    seed,
    creates: {
      count: creates,
      format: dice.pick('create format', ['csv', 'ndjson', 'xlsx'] as const),
      withoutReference: range(creates).filter((record) => dice.chance(`no reference ${record}`, referenceless)),
      referencePrefix: dice.chance('reference prefix', 0.1),
    },
    refunds: {
      count: refunds,
      ofCreates: range(creates).filter((record) => dice.chance(`refund invoice ${record}`, 3 / creates)),
      format: dice.pick('refund format', ['csv', 'ndjson', 'xlsx'] as const),
      partial: range(refunds + creates).filter((refund) => dice.chance(`partial ${refund}`, 0.3)),
    },
    faults: { rates, latencyMs: dice.int('latency', 0, 25), seed: dice.int('fault seed', 1, 2 ** 31 - 1) },
    sending: {
      concurrency: dice.pick('concurrency', [1, 2, 4, 8]),
      ...(dice.chance('paced', 0.25) ? { rate: dice.int('rate', 20, 80) } : {}),
      retries: dice.int('retries', 0, 3),
      timeoutSeconds: 2,
      ...(dice.chance('stop early', 0.2) ? { stopAfterFailures: dice.int('stop after', 2, 4) } : {}),
    },
    strict: dice.chance('strict', 0.4),
    hastyMerchant: dice.chance('hasty merchant', 0.5),
    ...(killed
      ? {
          kill: {
            phase: killPhase,
            signal: dice.chance('kill signal', 0.65) ? 'SIGKILL' : 'SIGTERM',
            afterRequests: dice.int('kill after', 1, killPhase === 'create' ? creates : refunds),
          },
        }
      : {}),
  };
}

/** 1 to `count`. */
export function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index + 1);
}

/** The scenario in a few words, for its line of the sweep. */
export function describeScenario(scenario: Scenario): string {
  const { creates, refunds, faults, sending, kill } = scenario;
  const rates = Object.entries(faults.rates)
    .map(([kind, rate]) => `${kind}=${rate}`)
    .join(' ');
  const plain = creates.referencePrefix ? 'all referenced' : `${creates.withoutReference.length} without reference`;
  const pace = [
    `c=${sending.concurrency}`,
    ...(sending.rate ? [`rate ${sending.rate}/s`] : []),
    `retries ${sending.retries}`,
    ...(sending.stopAfterFailures ? [`stop after ${sending.stopAfterFailures}`] : []),
  ].join(' ');
  const stop = kill
    ? `${kill.signal === 'SIGKILL' ? 'kill -9' : 'SIGTERM'} after request ${kill.afterRequests} of the ${kill.phase}s`
    : 'no kill';
  const merchant = `${scenario.strict ? '; strict refunds' : ''}${scenario.hastyMerchant ? '; a hasty merchant' : ''}`;
  return (
    `${creates.count} creates ${creates.format} (${plain}), ` +
    `${refunds.count}+${refunds.ofCreates.length} refunds ${refunds.format}; ` +
    `faults ${rates || 'none'} latency ${faults.latencyMs} ms; ${pace}; ${stop}${merchant}`
  );
}
