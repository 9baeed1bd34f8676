import type { ServiceConnection } from './service-connection.js';
import { resolveProfile, type Profile } from './config/profile.js';
import type { CommandContext, GlobalOptions } from './context.js';
import { addMask, inGithubActions } from './output/github-actions.js';
import { createTerminal, type Terminal } from './output/terminal.js';

/** What a command works with: its terminal and the selected environment's profile. */
export interface Session {
  terminal: Terminal;
  profile: Profile;
  /** Connects to the profile's service (starting the embedded sandbox if that is the environment). */
  connect(): Promise<ServiceConnection>;
}

/** Resolves the profile and prepares the terminal; prints the profile's notices on stderr. */
export async function openSession(options: GlobalOptions, context: CommandContext): Promise<Session> {
  const terminal = createTerminal(context, options);
  const profile = maskedInGithubActions(
    await resolveProfile({ env: options.env, config: options.config, cwd: context.cwd, environment: context.env }),
    context,
  );
  if (profile.notice) terminal.info(terminal.err.dim(profile.notice));
  if (profile.tokenFileReadableByOthers) {
    terminal.warn(`${profile.configFile} holds a token and can be read by other users: run chmod 600 on it.`);
  }
  return {
    terminal,
    profile,
    // The client (and got) load only when a request is about to be sent: --dry-run and invalid input never need it.
    connect: async () =>
      (await import('./service-connection.js')).connectToService(profile, {
        timeoutMs: options.timeout === undefined ? undefined : options.timeout * 1000,
        maxRetryAfterMs: options.maxRetryAfter === undefined ? undefined : options.maxRetryAfter * 1000,
        log: options.verbose ? (line) => terminal.debug(line) : undefined,
        notice: (line) => terminal.info(line),
        env: context.env,
      }),
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
