import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { cliEnvironment, tempHome } from './home.js';
import { expectNoSecrets } from './secrets.js';

// The one way the tests spawn the CLI, for what only a process shows: signals, pipes, its exit, start-up, and the
// smoke test of the built CLI. Everything else runs in this process (`runInProcess`).

/** The CLI as a merchant runs it. */
export const binPath = fileURLToPath(new URL('../../bin/einvoice.cjs', import.meta.url));

/**
 * A standalone executable to run instead of bin/ (`npm run test:binaries` sets it), so the end-to-end tests check
 * what the release ships too.
 */
const executable = process.env.EINVOICE_TEST_EXECUTABLE && resolve(process.env.EINVOICE_TEST_EXECUTABLE);

/** The command that runs `einvoice ...args`: the executable, or bin/ on this Node. */
export function cliCommand(args: string[]): [string, string[]] {
  return executable ? [executable, args] : [process.execPath, [binPath, ...args]];
}

export interface SpawnedResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface SpawnedOptions {
  /** The home folder (default: `env.HOME`, else a fresh one); state and config live below it. */
  home?: string;
  /** Variables added to a clean environment (CI set, so nothing prompts); undefined removes one. */
  env?: Record<string, string | undefined>;
  /** The working directory (default: the home folder). */
  cwd?: string;
  /** Text or bytes written to stdin, which is then closed. */
  input?: string | Buffer;
  /** A file descriptor stdout writes to instead of a pipe, as a shell's `> file` gives it (`child.stdout` is then null). */
  stdoutFd?: number;
  /** Further secrets of this run that must appear in neither stdout nor stderr. */
  secrets?: string[];
  /** The command's output is a token (`sandbox serve` prints the one it made): no check for tokens. */
  printsToken?: boolean;
}

/** A spawned run: a promise of its result, with its process and its output so far while it runs. */
export type SpawnedRun = Promise<SpawnedResult> & {
  child: ChildProcessWithoutNullStreams;
  output: { stdout: string; stderr: string };
  /** Resolves once stdout or stderr holds `text`; rejects if the process ends first. */
  waitFor(stream: 'stdout' | 'stderr', text: string | RegExp): Promise<void>;
};

const running: ChildProcessWithoutNullStreams[] = [];
// No process outlives its test file, whatever failed; one started before all the tests (a sandbox) serves them all.
afterAll(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/**
 * Spawns `einvoice ...args` with a clean environment in its own home folder and collects stdout, stderr and how it
 * ended; fails the test if a token is printed (`expectNoSecrets`), unless `printsToken`.
 */
export function runSpawned(args: string[], options: SpawnedOptions = {}): SpawnedRun {
  const home = options.home ?? options.env?.HOME ?? tempHome();
  const [command, commandArgs] = cliCommand(args);
  const stdio = ['pipe', options.stdoutFd ?? 'pipe', 'pipe'] as const;
  const child = spawn(command, commandArgs, {
    cwd: options.cwd ?? home,
    env: cliEnvironment(home, options.env),
    stdio: [...stdio],
  }) as ChildProcessWithoutNullStreams;
  running.push(child);
  const output = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]?.setEncoding('utf8').on('data', (chunk: string) => {
      output[stream] += chunk;
      for (const listener of listeners) listener();
    });
  }
  child.stdin.on('error', () => undefined).end(options.input ?? '');
  const result = new Promise<SpawnedResult>((resolveResult, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolveResult({ code, signal, ...output }));
  }).then((ended) => {
    if (!options.printsToken) expectNoSecrets(args, ended, options.env, options.secrets);
    return ended;
  });
  const waitFor = (stream: 'stdout' | 'stderr', text: string | RegExp) =>
    new Promise<void>((resolveWait, reject) => {
      const found = () => (typeof text === 'string' ? output[stream].includes(text) : text.test(output[stream]));
      const check = () => {
        if (!found()) return;
        listeners.delete(check);
        resolveWait();
      };
      listeners.add(check);
      child.once('close', (code) => {
        if (!found()) reject(new Error(`einvoice ${args.join(' ')} exited with ${code} first:\n${output.stderr}`));
      });
      check();
    });
  return Object.assign(result, { child, output, waitFor });
}
