import { execFileSync, spawn } from 'node:child_process';
import { quote } from 'shell-quote';
import { cliEnvironment } from './home.js';
import { binPath } from './spawned.js';
import { afterEach, onTestFailed } from 'vitest';

// Runs the CLI in a real pseudo-terminal through util-linux `script`, so stdin, stdout and stderr are terminals and
// the prompts behave as they do for a person. Tests wait for text to appear, never for time to pass.

/** Keys as a terminal in raw mode sends them. */
export const keys = {
  enter: '\r',
  up: '\u001b[A',
  down: '\u001b[B',
  ctrlC: '\u0003',
  backspace: '\u007f',
} as const;

export interface PtyExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface PtySession {
  /** Everything the terminal showed so far, without colours and cursor movements. */
  screen(): string;
  /**
   * Resolves once `text` appears after the previous match (so a prompt is not found again in its own answered
   * line); rejects with the screen if the CLI exits first.
   */
  waitFor(text: string | RegExp): Promise<void>;
  /** Types keys into the terminal. */
  type(text: string): void;
  /** Waits for `text`, then types `answer` followed by Enter. */
  answer(text: string | RegExp, answer: string): Promise<void>;
  /** Resolves when the CLI has exited. */
  exited: Promise<PtyExit>;
  /** Ends the session if it is still running (for clean-up after a failed test). */
  kill(): void;
  /** Sends `signal` to the CLI itself (not to the terminal around it), as `kill` from another shell would. */
  signal(signal: NodeJS.Signals): void;
}

export interface PtyOptions {
  /** The home folder: the profile file is found there, and drafts are kept under it. */
  home: string;
  /** Further variables; CI is never set, since CI disables prompts. */
  env?: Record<string, string>;
  /** Terminal width; wide enough by default that no prompt wraps. */
  columns?: number;
}

const ansiSequence =
  // eslint-disable-next-line no-control-regex -- escape sequences start with control characters
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()][0-9A-Za-z]|\u001b[=>78]/g;

/** Removes colours and cursor movements from terminal output. */
export function stripAnsi(text: string): string {
  return text.replace(ansiSequence, '').replace(/\r/g, '');
}

/** Starts `node bin/einvoice.cjs ...args` in a pseudo-terminal. */
export function spawnCliInPty(args: string[], options: PtyOptions): PtySession {
  const { home } = options;
  // The runners' clean environment, less CI (which disables prompts), in a terminal that has colours.
  const env = cliEnvironment(home, { CI: undefined, TERM: 'xterm-256color', ...options.env });
  // `stty` sizes the terminal before the CLI starts; `exec` makes the CLI's exit code the session's.
  const command = `stty cols ${options.columns ?? 200} rows 50; exec ${quote([process.execPath, binPath, ...args])}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: home, env, stdio: 'pipe' });

  let raw = '';
  let searchFrom = 0;
  const listeners = new Set<() => void>();
  const onOutput = (chunk: string) => {
    raw += chunk;
    for (const listener of [...listeners]) listener();
  };
  child.stdout.setEncoding('utf8').on('data', onOutput);
  child.stderr.setEncoding('utf8').on('data', onOutput);

  let hasExited = false;
  const exited = new Promise<PtyExit>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      hasExited = true;
      for (const listener of [...listeners]) listener();
      resolve({ code, signal });
    });
  });

  const screen = () => stripAnsi(raw);
  const waitFor = (text: string | RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        const rest = screen().slice(searchFrom);
        const match = typeof text === 'string' ? indexAndLength(rest, text) : regexMatch(rest, text);
        if (match) {
          listeners.delete(check);
          searchFrom += match.index + match.length;
          resolve();
        } else if (hasExited) {
          listeners.delete(check);
          reject(new Error(`The CLI exited before showing ${String(text)}. The terminal showed:\n${screen()}`));
        }
      };
      listeners.add(check);
      check();
    });
  const type = (text: string) => {
    child.stdin.write(text);
  };

  return {
    screen,
    waitFor,
    type,
    async answer(text, answer) {
      await waitFor(text);
      type(`${answer}${keys.enter}`);
    },
    exited,
    kill: () => {
      if (!hasExited) child.kill('SIGKILL');
    },
    signal: (signal) => {
      // `script` runs the CLI as its child (the shell execs it).
      execFileSync('pkill', [`-${signal.replace(/^SIG/, '')}`, '-P', String(child.pid)]);
    },
  };
}

function indexAndLength(haystack: string, needle: string) {
  const index = haystack.indexOf(needle);
  return index === -1 ? undefined : { index, length: needle.length };
}

function regexMatch(haystack: string, pattern: RegExp) {
  const match = pattern.exec(haystack);
  return match ? { index: match.index, length: match[0].length } : undefined;
}

/**
 * A test file's terminal sessions: `start` spawns the CLI in a pseudo-terminal (showing its screen if the test
 * fails), and every session still running is killed after each test.
 */
export function terminalSessions(): { start(args: string[], home: string): PtySession } {
  const sessions: PtySession[] = [];
  afterEach(() => {
    for (const session of sessions.splice(0)) session.kill();
  });
  return {
    start(args, home) {
      const session = spawnCliInPty(args, { home });
      sessions.push(session);
      onTestFailed(() => console.log(`The terminal showed:\n${session.screen()}`));
      return session;
    },
  };
}
