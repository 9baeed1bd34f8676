import { resolve } from 'node:path';
import type { CommandContext } from '../../context.js';
import type { ServeOptions } from './flags.js';
import { LocalFileError, UsageError, type FieldIssue } from '../../errors.js';
import { builtInSandboxRemedies } from '../../service-connection.js';
import { faultKinds, faultSettingsSchema, type FaultSettings } from '../../schemas/sandbox-admin.js';
import { validate } from '../../schemas/validate.js';
import type { SandboxLogEvent } from '../../sandbox/index.js';

/**
 * What `sandbox serve` runs with: its flags, or those `sandbox ui` sets; `open` opens the dashboard in a browser,
 * `builtIn` says the state file is the built-in sandbox's.
 */
type ServeWith = ServeOptions & { open?: boolean; currency?: string; timeZone?: string; builtIn?: boolean };

/**
 * Reads `--fault KIND=RATE` (repeatable), `--latency` and `--seed` into fault settings, checked by the shared
 * schema. A kind given twice keeps its last rate.
 */
export function parseFaultFlags(options: Pick<ServeOptions, 'fault' | 'latency' | 'seed'>): FaultSettings {
  const issues: FieldIssue[] = [];
  const faults: Record<string, number> = {};
  for (const flag of options.fault ?? []) {
    const separator = flag.lastIndexOf('=');
    const kind = flag.slice(0, separator).trim();
    const rate = flag.slice(separator + 1).trim();
    if (separator < 0 || !(faultKinds as readonly string[]).includes(kind) || rate === '') {
      issues.push({
        path: '--fault',
        message: `'${flag}' must be KIND=RATE with KIND one of ${faultKinds.join(', ')} and RATE from 0 to 1, e.g. 503=0.05`,
      });
      continue;
    }
    faults[kind] = Number(rate);
  }
  const result = validate(faultSettingsSchema, { faults, latencyMs: options.latency, seed: options.seed });
  if (!result.success) {
    issues.push(
      ...result.issues.map((issue) => ({
        path: issue.path.startsWith('faults') ? '--fault' : issue.path === 'latencyMs' ? '--latency' : '--seed',
        message: issue.path.startsWith('faults.')
          ? `${issue.path.slice('faults.'.length)}: ${issue.message}`
          : issue.message,
      })),
    );
  }
  if (issues.length > 0 || !result.success) throw new UsageError('Invalid fault injection flags.', { issues });
  return result.data;
}

/** Resolves on the first SIGINT or SIGTERM; the listeners stay until `dispose`, so no second signal kills us. */
function stopSignal(): { stopped: Promise<void>; dispose(): void } {
  let onSignal = () => {};
  const stopped = new Promise<void>((resolveStop) => (onSignal = () => resolveStop()));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stopped,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

function describeFaults(settings: FaultSettings): string | undefined {
  const parts = Object.entries(settings.faults ?? {}).map(([kind, rate]) => `${kind}=${rate}`);
  if (settings.latencyMs) parts.push(`latency ${settings.latencyMs} ms`);
  if (parts.length === 0) return undefined;
  return `Faults: ${parts.join(', ')} (seed ${settings.seed ?? 1})`;
}

/** `einvoice sandbox serve`: serves the sandbox over HTTP until SIGINT or SIGTERM. */
export async function serveSandbox(
  options: ServeWith,
  context: CommandContext,
  until: () => { stopped: Promise<void>; dispose(): void } = stopSignal,
): Promise<void> {
  const settings = parseFaultFlags(options);
  const stateFile = options.state === undefined ? undefined : resolve(context.cwd, options.state);
  const log = (event: SandboxLogEvent) => {
    if (event.type === 'error') context.stderr.write(`sandbox: unexpected error: ${String(event.error)}\n`);
    else if (options.verbose) {
      context.stderr.write(`${event.method} ${event.path} -> ${event.status} (${Math.round(event.ms)} ms)\n`);
    }
  };
  const signal = until();
  // It stops on the signal itself, closing the server and its state file: the entry point must not end it first.
  if (context.interrupt) context.interrupt.reportsItself = true;
  try {
    const { startSandbox } = await import('../../sandbox/index.js');
    const sandbox = await startSandbox({
      host: options.host,
      port: options.port,
      stateFile,
      token: options.token,
      demo: options.demo,
      latencyMs: settings.latencyMs,
      faults: settings.faults,
      seed: settings.seed,
      log,
      ui: options.ui,
      currency: options.currency,
      timeZone: options.timeZone,
    }).catch((error: unknown) => {
      throw explainStartFailure(error, options, context.env);
    });
    const dashboard = sandbox.dashboardUrl === undefined ? {} : { dashboard: sandbox.dashboardUrl };
    if (options.json) {
      context.stdout.write(`${JSON.stringify({ url: sandbox.url, token: sandbox.token, ...dashboard })}\n`);
    } else {
      const faults = describeFaults(settings);
      context.stdout.write(
        [
          // The page to open comes first: the service's own address answers API requests only.
          ...(dashboard.dashboard ? [`Dashboard: ${dashboard.dashboard}`] : []),
          `Sandbox listening on ${sandbox.url}`,
          `Token: ${sandbox.token}`,
          `State: ${stateFile ?? 'in memory (gone when the sandbox stops; keep it with --state FILE)'}`,
          ...(faults ? [faults] : []),
          '',
        ].join('\n'),
      );
      // What to do with it is a notice, for stderr: stdout holds what a script reads (the address and the token).
      context.stderr.write(
        [
          `Try: EINVOICE_BASE_URL=${sandbox.url} EINVOICE_TOKEN=${sandbox.token} einvoice stats --env sandbox`,
          `Admin API (no token, this machine only): ${sandbox.url}/__sandbox/. Stop with Ctrl-C.`,
          '',
        ].join('\n'),
      );
    }
    if (dashboard.dashboard && options.open) await showDashboard(dashboard.dashboard, context);
    await signal.stopped;
    await sandbox.close();
  } finally {
    signal.dispose();
  }
}

/** Opens the dashboard in the merchant's browser when there is one; its address is printed either way. */
async function showDashboard(url: string, context: CommandContext): Promise<void> {
  const { canOpenBrowser, openBrowser } = await import('./browser.js');
  if (!canOpenBrowser(context.env)) return;
  const problem = await openBrowser(url, context.env);
  context.stderr.write(
    problem === undefined
      ? 'Opening the dashboard in your browser.\n'
      : `Could not start a browser (${problem}); open the dashboard's address yourself.\n`,
  );
}

/**
 * Turns the failures a merchant can fix (port taken, bad options) into usage errors, and says how to give a state
 * file that cannot be used another one.
 */
function explainStartFailure(error: unknown, options: ServeWith, env: NodeJS.ProcessEnv): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new UsageError(`Port ${options.port} on ${options.host} is already in use.`, {
      hint: 'Choose another with --port, or --port 0 to take any free port.',
      cause: error,
    });
  }
  if (code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    return new UsageError(`Cannot listen on ${options.host}:${options.port} (${code}).`, { cause: error });
  }
  if (error instanceof LocalFileError) {
    return error.withRemedies(
      options.builtIn ? builtInSandboxRemedies(error, env) : ['Or give sandbox serve --state another file.'],
    );
  }
  if (error instanceof RangeError) return new UsageError(error.message, { cause: error });
  return error;
}
