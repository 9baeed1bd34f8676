import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { repositoryFolder } from './repository-copy.js';

// The Action (action.yml) run as a GitHub runner runs a composite action's steps: in order, each step's `if`
// decided by the outcome of those before it, `${{ }}` filled in from the inputs, the github and runner contexts and
// the outputs of earlier steps, and between steps what the runner carries: GITHUB_OUTPUT (a step's outputs),
// GITHUB_PATH (folders put before PATH for the later steps), RUNNER_TEMP and the step summary. actions/cache is a
// store of folders by key that outlives one run, as the repository's cache does; an artifact upload is recorded.

export interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

export interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>;
  runs: { steps: Step[] };
}

/** action.yml, parsed. */
export const action = parse(readFileSync(join(repositoryFolder, 'action.yml'), 'utf8')) as Action;

/** The inputs as a workflow that names only the required ones gets them: every default, plus `given`. */
export function inputsWith(given: Record<string, string>): Record<string, string> {
  const defaults = Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? '']);
  return { ...Object.fromEntries(defaults), file: 'invoices.csv', environment: 'staging', ...given };
}

/** The values `${{ }}` may name: `inputs.NAME`, `github.NAME`, `runner.NAME`, `steps.ID.outputs.NAME`. */
export type Contexts = Record<string, string>;

/** The value of one expression: a context's value, or a quoted string. Anything else is not in this action. */
function valueOf(expression: string, contexts: Contexts): string {
  const literal = /^'(.*)'$/.exec(expression);
  if (literal) return literal[1] ?? '';
  if (!/^(inputs|github|runner|steps)\.[\w.-]+$/.test(expression))
    throw new Error(`action.yml uses an expression this runner does not know: ${expression}`);
  // A context the run has no value for is empty, as on GitHub (a skipped step's outputs, an unset input).
  return contexts[expression] ?? '';
}

/** A value of action.yml with each `${{ expression }}` filled in. */
export function interpolate(value: string, contexts: Contexts): string {
  return value.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expression: string) => valueOf(expression, contexts));
}

/** A step's `if`: clauses joined by `&&`, each a status function, `A == B`, `A != B` or a value. */
export function condition(expression: string | undefined, contexts: Contexts, failed: boolean): boolean {
  const clauses = (expression ?? '').split('&&').map((clause) => clause.trim());
  // Without a status function, GitHub reads `success() && ...`.
  const statusGiven = clauses.some((clause) => /^(always|success|failure)\(\)$/.test(clause));
  return [...(statusGiven ? [] : ['success()']), ...clauses.filter(Boolean)].every((clause) => {
    if (clause === 'always()') return true;
    if (clause === 'success()') return !failed;
    if (clause === 'failure()') return failed;
    const compared = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(clause);
    if (!compared) return valueOf(clause, contexts) !== '';
    const [, left = '', operator, right = ''] = compared;
    return (valueOf(left.trim(), contexts) === valueOf(right.trim(), contexts)) === (operator === '==');
  });
}

/** The lines `NAME=value` a step appended to a GITHUB_OUTPUT file, as outputs. */
export function outputsOf(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** Runs a `run:` step's script as `shell: bash` does: `bash --noprofile --norc -eo pipefail SCRIPT`. */
export function runBash(script: string, options: { cwd: string; env: Record<string, string>; scriptFolder: string }) {
  mkdirSync(options.scriptFolder, { recursive: true });
  const file = join(options.scriptFolder, 'step.sh');
  writeFileSync(file, script);
  return spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], {
    cwd: options.cwd,
    encoding: 'utf8',
    env: options.env,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Writes executable stubs (bash scripts) into `folder`, by command name. */
export function writeStubs(folder: string, stubs: Record<string, string>): void {
  mkdirSync(folder, { recursive: true });
  for (const [name, script] of Object.entries(stubs))
    writeFileSync(join(folder, name), `#!/usr/bin/env bash\n${script}\n`, { mode: 0o755 });
}

/** The repository's Actions cache: folders saved by key, kept from one run to the next. */
export class ActionsCache {
  readonly saved: string[] = [];
  constructor(private readonly folder: string) {}

  /** actions/cache/restore: the exact key, else the newest key that begins with a restore key. */
  restore(path: string, key: string, restoreKeys: string): Record<string, string> {
    const prefixes = restoreKeys.split('\n').filter(Boolean);
    const matched = this.saved.includes(key)
      ? key
      : this.saved.findLast((saved) => prefixes.some((prefix) => saved.startsWith(prefix)));
    if (matched === undefined) return {};
    rmSync(path, { recursive: true, force: true });
    cpSync(join(this.folder, encodeURIComponent(matched)), path, { recursive: true });
    return { 'cache-hit': String(matched === key), 'cache-matched-key': matched };
  }

  /** actions/cache/save: a key already taken keeps what it holds (actions/cache warns). */
  save(path: string, key: string): void {
    if (this.saved.includes(key) || !existsSync(path)) return;
    cpSync(path, join(this.folder, encodeURIComponent(key)), { recursive: true });
    this.saved.push(key);
  }
}

export interface RunnerContext {
  /** The inputs `with:` gives; the rest take their defaults. */
  inputs: Record<string, string>;
  /** github.action_path, github.action_ref, ...; github.workspace is the working folder of every step. */
  github: Record<string, string> & { workspace: string; action_path: string };
  /** runner.os, runner.arch and runner.temp. */
  runner: { os: string; arch: string; temp: string };
  /** The job's environment (the workflow's `env:`), PATH included. */
  env: Record<string, string>;
  cache: ActionsCache;
}

export interface StepResult {
  name: string;
  /** success, failure, or skipped (its `if` was false). */
  outcome: 'success' | 'failure' | 'skipped';
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  /** How long the step took (the log's figure; no test asserts one). */
  milliseconds: number;
}

/** Runs every step of action.yml as a runner does, and returns what each did. */
export function runAction(context: RunnerContext): StepResult[] {
  const { github, runner } = context;
  const contexts: Contexts = {
    ...prefixed('inputs', inputsWith(context.inputs)),
    ...prefixed('github', github),
    ...prefixed('runner', runner),
  };
  const commands = join(runner.temp, '..', 'runner-files');
  mkdirSync(commands, { recursive: true });
  const pathFile = join(commands, 'path');
  const summaryFile = join(commands, 'step-summary.md');
  writeFileSync(pathFile, '');
  writeFileSync(summaryFile, '');
  const results: StepResult[] = [];
  let failed = false;

  for (const [index, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.uses ?? `step ${index + 1}`;
    if (!condition(step.if, contexts, failed)) {
      results.push({ name, outcome: 'skipped', stdout: '', stderr: '', outputs: {}, milliseconds: 0 });
      continue;
    }
    const started = performance.now();
    const result: StepResult = { name, outcome: 'success', stdout: '', stderr: '', outputs: {}, milliseconds: 0 };
    if (step.run !== undefined) {
      const outputFile = join(commands, `output-${index}`);
      writeFileSync(outputFile, '');
      // GITHUB_PATH's folders come first, the newest first, as the runner puts them.
      const added = readFileSync(pathFile, 'utf8').split('\n').filter(Boolean).reverse();
      const stepEnv = Object.fromEntries(
        Object.entries(step.env ?? {}).map(([key, value]) => [key, interpolate(value, contexts)]),
      );
      const ran = runBash(step.run, {
        cwd: github.workspace,
        scriptFolder: join(commands, `step-${index}`),
        env: {
          ...context.env,
          CI: 'true',
          GITHUB_ACTIONS: 'true',
          GITHUB_WORKSPACE: github.workspace,
          GITHUB_ACTION_PATH: github.action_path,
          RUNNER_TEMP: runner.temp,
          GITHUB_OUTPUT: outputFile,
          GITHUB_PATH: pathFile,
          GITHUB_STEP_SUMMARY: summaryFile,
          ...stepEnv,
          PATH: [...added, context.env.PATH ?? ''].join(delimiter),
        },
      });
      Object.assign(result, {
        outcome: ran.status === 0 ? 'success' : 'failure',
        stdout: ran.stdout,
        stderr: ran.stderr,
        outputs: outputsOf(outputFile),
      });
    } else {
      const withs = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([key, value]) => [key, interpolate(value, contexts)]),
      );
      const path = (withs.path ?? '') && resolveIn(github.workspace, withs.path ?? '');
      if (step.uses?.startsWith('actions/cache/restore@'))
        result.outputs = context.cache.restore(path, withs.key ?? '', withs['restore-keys'] ?? '');
      else if (step.uses?.startsWith('actions/cache/save@')) context.cache.save(path, withs.key ?? '');
      else if (!step.uses?.startsWith('actions/upload-artifact@'))
        throw new Error(`action.yml uses an action this runner does not know: ${step.uses}`);
    }
    result.milliseconds = Math.round(performance.now() - started);
    if (result.outcome === 'failure') failed = true;
    if (step.id) Object.assign(contexts, prefixed(`steps.${step.id}.outputs`, result.outputs));
    results.push(result);
  }
  return results;
}

/** The step summary the run wrote. */
export function stepSummary(runnerTemp: string): string {
  return readFileSync(join(runnerTemp, '..', 'runner-files', 'step-summary.md'), 'utf8');
}

function prefixed(prefix: string, values: Record<string, string>): Contexts {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [`${prefix}.${key}`, value]));
}

function resolveIn(folder: string, path: string): string {
  return isAbsolute(path) ? path : join(folder, path);
}
