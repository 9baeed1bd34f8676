/** Where a command reads and writes; the entry point passes the process's own, tests may pass others. */
export interface CommandContext {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Aborted on the first Ctrl-C (SIGINT) or SIGTERM, with an InterruptedError naming the signal as its reason;
   * absent when the caller offers no interruption.
   */
  signal?: AbortSignal;
  /** How the command answers that signal; see `InterruptControl`. */
  interrupt?: InterruptControl;
}

/**
 * How a command answers the first signal; otherwise the entry point ends the process at once (exit 130, or 143
 * for SIGTERM). A second signal always ends it at once.
 */
export interface InterruptControl {
  /** The command finishes its work in flight, then stops and says where it stands (a bulk run). */
  graceful: boolean;
  /** The command aborts its work at once on `signal` and says itself what is known (a create or a refund). */
  reportsItself?: boolean;
  /** A graceful command is asking a question: nothing is in flight, and the signal ends the question. */
  asking?: boolean;
  /**
   * Called when a second signal ends the process at once: the command writes, synchronously, what stdout still owes
   * (the one --json document of a bulk run, with what is known).
   */
  lastWords?: () => void;
}

/** The default of --max-retry-after: the longest Retry-After, in seconds, einvoice waits out. */
export const defaultMaxRetryAfterSeconds = 60;

/** Options every command accepts, declared on the root command. */
export interface GlobalOptions {
  env?: string;
  config?: string;
  json?: boolean;
  verbose?: boolean;
  timeout?: number;
  /** --max-retry-after: the longest Retry-After, in seconds, einvoice waits for before trying again. */
  maxRetryAfter?: number;
  /** False with `--no-input`: never prompt, fail on what is missing. */
  input: boolean;
  /** False with `--no-color`. */
  color: boolean;
  /** False with `--no-ledger`: nothing this command sends is recorded in the ledger. */
  ledger?: boolean;
}

/** True when the merchant can answer prompts: stdin and stderr are terminals, not CI, and `--no-input` is absent. */
export function canPrompt(context: CommandContext, options: Pick<GlobalOptions, 'input'>): boolean {
  return Boolean(options.input && !isCi(context.env) && context.stderr.isTTY && context.stdin.isTTY);
}

/** How a hint says when missing fields would be asked for: never in CI, so it does not promise it there. */
export function whenAsked(env: NodeJS.ProcessEnv): string {
  return isCi(env)
    ? 'CI is set, so nothing is asked at a prompt.'
    : 'in a terminal without --no-input you are asked for them.';
}

/** True on a CI runner, where nobody answers prompts. */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.CI && env.CI !== 'false' && env.CI !== '0');
}
