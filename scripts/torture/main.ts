import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { checkTrial, guarantees, type Guarantee, type Violation } from './checker.ts';
import { describeScenario, scenarioFor } from './scenario.ts';
import { runSeed, type Rig } from './seed-run.ts';
import type { Trial } from './trial.ts';

// `npm run torture -- --seeds N [--from S]`, `npm run torture -- --seed S`: for each seed, a served sandbox with
// faults, a workload of creates and refunds run through the built CLI as a merchant runs it (killed at a moment the
// seed picks, then run again with the merchant's word until it ends), and the checker over everything that happened.
// One line per seed, then the verdict; exit 1 when a guarantee did not hold. docs/guarantees.md says what it checks.

const usage = `Usage: npm run torture -- [--seeds N] [--from S] [--seed S] [--keep]

  --seeds N   run N seeds (default 3), from --from (default 1)
  --seed S    run the seed S alone: a failing seed's replay
  --keep      keep every seed's folder (a failing seed's is always kept)`;

const { values } = parseArgs({
  options: {
    seeds: { type: 'string' },
    from: { type: 'string' },
    seed: { type: 'string' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const whole = (name: string, text: string | undefined, fallback: number) => {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) {
    console.error(`--${name} must be a whole number, got '${text}'.\n\n${usage}`);
    process.exit(2);
  }
  return Number(text);
};
const seeds =
  values.seed !== undefined
    ? [whole('seed', values.seed, 1)]
    : Array.from({ length: whole('seeds', values.seeds, 3) }, (_, index) => whole('from', values.from, 1) + index);

/** How many breaches of one guarantee a failing seed prints. */
const shownBreaches = 3;

const root = fileURLToPath(new URL('../..', import.meta.url));
// The CLI as built from the sources: built again first when one is newer than the last build.
execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
const command: [string, string[]] = [process.execPath, [join(root, 'bin', 'einvoice.cjs')]];
const rig: Rig = { command };
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();

console.log(
  `Torture: ${seeds.length === 1 ? `seed ${seeds[0]}` : `seeds ${seeds[0]} to ${seeds.at(-1)}`} on ${commit}, ` +
    `Node.js ${process.version}`,
);
const started = performance.now();
const tally = { passed: 0, failed: 0 };
for (const seed of seeds) {
  const scenario = scenarioFor(seed);
  const seedStarted = performance.now();
  let trial: Trial | undefined;
  let folder: string | undefined;
  let violations: Violation[] = [];
  let crashed: unknown;
  try {
    ({ trial, folder } = await runSeed(scenario, rig));
    violations = checkTrial(trial);
  } catch (error) {
    crashed = error;
  }
  const seconds = ((performance.now() - seedStarted) / 1000).toFixed(1);
  const runs = trial?.runs ?? [];
  const marks = runs.reduce((sum, run) => sum + run.marks.length, 0);
  const failed = crashed !== undefined || violations.length > 0 || trial?.unfinished !== undefined;
  const verdict = failed ? 'FAILED' : 'ok';
  const stopped = runs.find((run) => run.stopped);
  const kill = scenario.kill ? (stopped ? `, stopped run ${stopped.run}` : ', the run ended before its stop') : '';
  console.log(
    `seed ${seed}: ${verdict} (${runs.length} runs, ${marks} ${marks === 1 ? 'mark' : 'marks'}${kill}; ${seconds} s) ` +
      `${describeScenario(scenario)}`,
  );
  if (failed) {
    tally.failed += 1;
    if (crashed !== undefined) console.log(`  ✖ the rig failed: ${(crashed as Error).stack ?? String(crashed)}`);
    if (trial?.unfinished) console.log(`  ✖ the seed did not end: ${trial.unfinished}`);
    const byGuarantee = new Map<Guarantee, Violation[]>();
    for (const one of violations) byGuarantee.set(one.guarantee, [...(byGuarantee.get(one.guarantee) ?? []), one]);
    for (const [guarantee, breaches] of byGuarantee) {
      console.log(`  ✖ ${guarantees[guarantee]} (${guarantee})`);
      // The first few tell what happened; trial.json in the folder kept holds what shows the others.
      for (const violation of breaches.slice(0, shownBreaches)) {
        console.log(`    ${violation.subject}: ${violation.message}`);
        for (const line of violation.evidence) console.log(`      ${line}`);
      }
      if (breaches.length > shownBreaches) console.log(`    and ${breaches.length - shownBreaches} more`);
    }
    console.log(`  replay: npm run torture -- --seed ${seed}`);
    if (folder && trial) {
      // What the checker read, for a look afterwards (the token aside).
      writeFileSync(join(folder, 'trial.json'), JSON.stringify({ ...trial, token: undefined }, null, 2));
      console.log(`  kept: ${folder} (trial.json: what the checker read)`);
    }
  } else {
    tally.passed += 1;
    if (folder && !values.keep) rmSync(folder, { recursive: true, force: true });
  }
}
const total = ((performance.now() - started) / 1000).toFixed(0);
console.log(
  `${tally.failed === 0 ? '✔' : '✖'} ${seeds.length} ${seeds.length === 1 ? 'seed' : 'seeds'} in ${total} s: ` +
    `${tally.passed} passed, ${tally.failed} failed.`,
);
process.exitCode = tally.failed === 0 ? 0 : 1;
