import type { ServiceConnection } from './service-connection.js';
import { resolveProfile, type Profile } from './config/profile.js';
import { existsSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { sandboxStateFile } from './config/paths.js';
import { sandboxEnvironment } from './schemas/config.js';
import { isCi, type CommandContext, type GlobalOptions } from './context.js';
import { addMask, inGithubActions, warningsSummary, workflowCommand } from './output/github-actions.js';
import { createTerminal, type Terminal } from './output/terminal.js';

/** What a command works with: its terminal and the selected environment's profile. */
export interface Session {
  terminal: Terminal;
  profile: Profile;
  /** Connects to the profile's service (starting the embedded sandbox if that is the environment). */
  connect(): Promise<ServiceConnection>;
  /**
   * The instant relative dates count from: the sandbox's own clock when the environment is a sandbox (its clock may
   * have been moved with `sandbox expire`), else this machine's.
   */
  now(): Promise<Date>;
  /** The days read on the merchant's calendar, and the warning a run in CI owes for them with no zone configured. */
  zone: ZoneNotice;
}

/**
 * Dates read as days of the profile's zone: a bare day (`2026-12-03`), `today`, `+30d`. With no zone configured (no
 * profile `timeZone`, no `TZ`) they are this machine's zone's days, and a CI runner's zone is seldom the merchant's:
 * a run in CI warns once. At a terminal outside CI the machine's zone is the merchant's own, and nothing is said.
 */
export interface ZoneNotice {
  /** Heard each time a date is read as a day of the zone; absent when no warning could follow. */
  readonly dayRead?: () => void;
  /** The warning owed for the days read so far: a run over a file tells it with its own, once its plan is done. */
  take(): string | undefined;
  /** Tells the warning owed: on stderr, and in GitHub Actions as an annotation and in the step summary. */
  tell(): Promise<void>;
}

/**
 * Resolves the profile and prepares the terminal; prints the profile's notices on stderr. A command that only reads
 * or keeps the ledger (`use: 'ledger'`) needs no entry of the environment: its name finds its ledger.
 */
export async function openSession(
  options: GlobalOptions,
  context: CommandContext,
  use: 'send' | 'ledger' = 'send',
): Promise<Session> {
  const terminal = createTerminal(context, options);
  const profile = maskedInGithubActions(
    await resolveProfile({ env: options.env, config: options.config, cwd: context.cwd, environment: context.env, use }),
    context,
  );
  if (profile.notice) terminal.info(terminal.err.dim(profile.notice));
  const zone = zoneNotice(profile, terminal, context);
  if (profile.tokenFileReadableByOthers) {
    terminal.warn(`${profile.configFile} holds a token and can be read by other users: run chmod 600 on it.`);
  }
  return {
    terminal,
    profile,
    zone,
    // The client (and got) load only when a request is about to be sent: --dry-run and invalid input never need it.
    connect: async () =>
      (await import('./service-connection.js')).connectToService(profile, {
        timeoutMs: options.timeout === undefined ? undefined : options.timeout * 1000,
        maxRetryAfterMs: options.maxRetryAfter === undefined ? undefined : options.maxRetryAfter * 1000,
        log: options.verbose ? (line) => terminal.debug(line) : undefined,
        env: context.env,
      }),
    now: async () => {
      // The sandbox environment as the profile file names it (`sandbox serve`), not a service EINVOICE_BASE_URL names.
      const servedSandbox = profile.name === sandboxEnvironment && profile.baseUrlSource === 'file';
      if (!profile.isEmbeddedSandbox && !servedSandbox) return new Date();
      // An embedded sandbox not yet started has its clock at this machine's: nothing to start for it.
      if (profile.isEmbeddedSandbox && !existsSync(sandboxStateFile(context.env))) return new Date();
      const { connectToSandboxAdmin } = await import('./service-connection.js');
      try {
        const connection = await connectToSandboxAdmin(profile, context.env);
        try {
          return new Date((await connection.admin.clock()).now);
        } finally {
          await connection.close();
        }
      } catch {
        // A sandbox that cannot tell its clock is told the dates of this machine's; sending says what is wrong.
        return new Date();
      }
    },
  };
}

/** What a run in CI says of the days it read in `timeZone`, this machine's zone, no zone being configured. */
function unconfiguredZoneWarning(timeZone: string): string {
  return (
    `Dates without a time zone were read in ${timeZone}, this machine's zone: set timeZone in the profile or TZ ` +
    "(the service's merchants usually mean Africa/Cairo; see einvoice help dates)."
  );
}

function zoneNotice(profile: Profile, terminal: Terminal, context: CommandContext): ZoneNotice {
  if (profile.timeZoneSource !== 'system' || !isCi(context.env)) {
    return { take: () => undefined, tell: () => Promise.resolve() };
  }
  let read = false;
  const take = () => (read ? unconfiguredZoneWarning(profile.timeZone) : undefined);
  return {
    dayRead: () => {
      read = true;
    },
    take,
    tell: async () => {
      const warning = take();
      if (warning === undefined) return;
      terminal.warn(warning);
      const { env } = context;
      if (!inGithubActions(env)) return;
      context.stderr.write(`${workflowCommand('warning', { title: 'einvoice' }, warning)}\n`);
      if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, warningsSummary([warning]));
    },
  };
}

/**
 * In GitHub Actions, a token read from a file or printed by a tokenCommand is no secret the runner knows of: it is
 * registered with ::add-mask:: when first read, so the runner hides it wherever it would appear in the log.
 */
function maskedInGithubActions(profile: Profile, context: CommandContext): Profile {
  const { kind } = profile.tokenSource;
  if (!inGithubActions(context.env) || (kind !== 'file' && kind !== 'command')) return profile;
  let masked = false;
  return {
    ...profile,
    readToken: async (options) => {
      const token = await profile.readToken(options);
      if (!masked) context.stderr.write(`${addMask(token)}\n`);
      masked = true;
      return token;
    },
  };
}
