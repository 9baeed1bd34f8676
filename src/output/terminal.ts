import { Chalk, type ChalkInstance } from 'chalk';
import type { CommandContext, GlobalOptions } from '../context.js';
import { canPrompt, isCi } from '../context.js';
import { terminalSafe } from './safe-text.js';

/** How a command writes: data on stdout, everything else on stderr, colour only where it belongs. */
export interface Terminal {
  /** Colours for stdout (off unless stdout is a terminal). */
  out: ChalkInstance;
  /** Colours for stderr (off unless stderr is a terminal). */
  err: ChalkInstance;
  /** True when prompts can be shown and answered. */
  interactive: boolean;
  /** True when spinners and progress may animate on stderr: see `animationAllowed`. */
  animate: boolean;
  json: boolean;
  /** Writes a line of data to stdout. */
  data(text: string): void;
  /** Writes a line of information to stderr. */
  info(text: string): void;
  /** Writes a sentence of success (✔) to stderr: what a script reads goes to stdout, with `data`. */
  success(text: string): void;
  /** Writes a warning to stderr. */
  warn(text: string): void;
  /** Writes a line to stderr only with --verbose. */
  debug(text: string): void;
}

/** True when colour may be used on `stream`: a terminal, with neither NO_COLOR nor --no-color. */
export function colorAllowed(
  stream: { isTTY?: boolean },
  env: NodeJS.ProcessEnv,
  options: Pick<GlobalOptions, 'color'>,
) {
  if (options.color === false || (env.NO_COLOR !== undefined && env.NO_COLOR !== '') || env.TERM === 'dumb')
    return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY);
}

/**
 * True when stderr may carry a spinner or a bar redrawn in place: a terminal outside CI, with colour allowed
 * (NO_COLOR, --no-color and TERM=dumb ask for plain output) and a known width. A terminal that reports no
 * columns (a pseudo-terminal nobody sized) would make ora redraw without end.
 */
export function animationAllowed(
  stream: { isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv,
  options: Pick<GlobalOptions, 'color'>,
) {
  return Boolean(stream.isTTY) && !isCi(env) && colorAllowed(stream, env, options) && (stream.columns ?? 0) > 0;
}

/** Builds the terminal of one command run. */
export function createTerminal(context: CommandContext, options: GlobalOptions): Terminal {
  const out = new Chalk({ level: colorAllowed(context.stdout, context.env, options) ? 1 : 0 });
  const err = new Chalk({ level: colorAllowed(context.stderr, context.env, options) ? 1 : 0 });
  return {
    out,
    err,
    interactive: canPrompt(context, options),
    animate: animationAllowed(context.stderr, context.env, options),
    json: Boolean(options.json),
    data: (text) => context.stdout.write(`${text}\n`),
    info: (text) => context.stderr.write(`${text}\n`),
    success: (text) => context.stderr.write(`${err.green('✔')} ${text}\n`),
    warn: (text) => context.stderr.write(`${err.yellow('!')} ${text}\n`),
    debug: (text) => {
      // Verbose lines show what the service sent (headers, bodies): printed without escapes.
      if (options.verbose) context.stderr.write(`${err.dim(terminalSafe(text))}\n`);
    },
  };
}
