import { isTimeZone, processTimeZone } from '../schemas/time-zone.js';
import { AuthError, UsageError } from '../errors.js';
import { exampleProfileFile } from '../package-files.js';
import {
  productionEnvironment,
  sandboxEnvironment,
  type Config,
  type EnvironmentConfig,
  type InvoiceDefaults,
} from '../schemas/config.js';
import { tokenProblem } from '../schemas/token.js';
import { loadConfig } from './load.js';
import { runTokenCommand } from './token-command.js';
import { nearestName } from '../schemas/nearest-name.js';

/** Where the token of the selected environment comes from. */
export type TokenSource =
  | { kind: 'env-override'; variable: 'EINVOICE_TOKEN' }
  | { kind: 'file'; filepath: string }
  | { kind: 'env'; variable: string }
  | { kind: 'command'; command: string }
  | { kind: 'embedded-sandbox' }
  | { kind: 'none' };

/** The environment a command talks to, with everything needed to reach it. */
export interface Profile {
  name: string;
  /** Where the name came from: --env, EINVOICE_ENV, defaultEnv, or the built-in default. */
  selectedBy: '--env' | 'EINVOICE_ENV' | 'defaultEnv' | 'default';
  /** The service's base URL; undefined for the embedded sandbox. */
  baseUrl?: string;
  baseUrlSource?: 'file' | 'EINVOICE_BASE_URL';
  configFile?: string;
  /** True when the profile file holds a token (of any environment) and can be read by group or others. */
  tokenFileReadableByOthers: boolean;
  tokenSource: TokenSource;
  defaults: InvoiceDefaults;
  /** The merchant's time zone, whose days `today` and bare dates name: the file's `timeZone`, else `TZ`, else the system's. */
  timeZone: string;
  /** Where the time zone came from. */
  timeZoneSource: 'file' | 'TZ' | 'system';
  /** The currency shown beside amounts (`EGP`), from the file's `currency`; never sent. */
  currency?: string;
  /** The environment's `strict`: hold back every record with a warning (`--strict` and `--no-strict` win). */
  strict: boolean;
  /** The environment's `ledger`: false when nothing sent there is to be kept in the ledger (`--no-ledger` too). */
  ledger: boolean;
  isProduction: boolean;
  isEmbeddedSandbox: boolean;
  /**
   * Reads the token from its source; called only when a request is about to be sent. Never printed. A token that
   * cannot be sent in a header is refused here, naming its source. A tokenCommand runs for at most `timeoutMs`.
   */
  readToken: (options?: { timeoutMs?: number }) => Promise<string>;
  /** A notice for stderr, such as the default environment having been chosen for the merchant. */
  notice?: string;
}

export interface ProfileRequest {
  env?: string;
  config?: string;
  cwd: string;
  environment: NodeJS.ProcessEnv;
  /**
   * What the profile is for: sending (the default) needs the environment's entry, or EINVOICE_BASE_URL; the ledger
   * of what was sent there is found by the environment's name alone, and needs neither.
   */
  use?: 'send' | 'ledger';
}

/** Selects the environment (--env, else EINVOICE_ENV, else defaultEnv, else sandbox) and resolves its settings. */
export async function resolveProfile(request: ProfileRequest): Promise<Profile> {
  const { environment } = request;
  const loaded = await loadConfig(request.cwd, request.config ?? nonEmpty(environment.EINVOICE_CONFIG));
  const { config, filepath } = loaded;

  const explicit = nonEmpty(request.env) ?? nonEmpty(environment.EINVOICE_ENV);
  const selectedBy: Profile['selectedBy'] = nonEmpty(request.env)
    ? '--env'
    : nonEmpty(environment.EINVOICE_ENV)
      ? 'EINVOICE_ENV'
      : config.defaultEnv
        ? 'defaultEnv'
        : 'default';
  const name = explicit ?? config.defaultEnv ?? sandboxEnvironment;
  const settings: EnvironmentConfig | undefined = config.environments?.[name];
  const overrideUrl = nonEmpty(environment.EINVOICE_BASE_URL);

  // EINVOICE_BASE_URL (with EINVOICE_TOKEN) is a whole environment on its own: CI needs no profile file.
  if (!settings && name !== sandboxEnvironment && !overrideUrl && request.use !== 'ledger') {
    const nearest = nearestName(name, knownEnvironments(config));
    throw new UsageError(`Unknown environment "${name}".${nearest ? ` Did you mean ${nearest}?` : ''}`, {
      hint: filepath
        ? `Environments in ${filepath}: ${knownEnvironments(config).join(', ')}.`
        : `No profile file was found. Create .einvoicerc (see ${exampleProfileFile}) with environments.${name}.baseUrl and a token, set EINVOICE_BASE_URL and EINVOICE_TOKEN, or use --env sandbox.`,
    });
  }

  const baseUrl = overrideUrl ?? settings?.baseUrl;
  const isEmbeddedSandbox = name === sandboxEnvironment && !baseUrl;
  const why = filepath ? `no defaultEnv in ${filepath}` : 'no profile file found';
  // With EINVOICE_BASE_URL the requests go to that address, not to the built-in sandbox: the notice names it.
  const notice =
    selectedBy !== 'default'
      ? undefined
      : request.use === 'ledger'
        ? `The ledger of the ${name} environment (${why}); choose another with --env.`
        : overrideUrl
          ? `Using ${overrideUrl} from EINVOICE_BASE_URL as the ${name} environment (${why}); choose another with --env.`
          : `Using the built-in sandbox environment (${why}); choose another with --env.`;

  const profile: Omit<Profile, 'readToken'> = {
    name,
    selectedBy,
    baseUrl,
    baseUrlSource: overrideUrl ? 'EINVOICE_BASE_URL' : baseUrl ? 'file' : undefined,
    configFile: filepath,
    // Any token in the file is exposed, not only the selected environment's.
    tokenFileReadableByOthers:
      loaded.readableByOthers && Object.values(config.environments ?? {}).some((environment) => environment.token),
    tokenSource: isEmbeddedSandbox ? { kind: 'embedded-sandbox' } : tokenSourceOf(settings, filepath, environment),
    defaults: config.defaults ?? {},
    ...zoneOf(config.timeZone, environment),
    ...(config.currency ? { currency: config.currency } : {}),
    strict: settings?.strict === true,
    ledger: settings?.ledger !== false,
    isProduction: name === productionEnvironment,
    isEmbeddedSandbox,
    notice,
  };
  return {
    ...profile,
    readToken: async (options = {}) =>
      checkedToken(await readToken(profile, settings?.token, environment, options.timeoutMs), profile),
  };
}

/** The merchant's time zone: the profile file's, else `TZ` when it names one the platform knows, else the system's. */
function zoneOf(
  fromFile: string | undefined,
  environment: NodeJS.ProcessEnv,
): Pick<Profile, 'timeZone' | 'timeZoneSource'> {
  if (fromFile) return { timeZone: fromFile, timeZoneSource: 'file' };
  const named = environment.TZ?.replace(/^:/, '');
  if (named && isTimeZone(named)) return { timeZone: named, timeZoneSource: 'TZ' };
  return { timeZone: processTimeZone(), timeZoneSource: 'system' };
}

/** The token if a header can carry it; otherwise an authentication error naming where it came from. */
function checkedToken(token: string, profile: Omit<Profile, 'readToken'>): string {
  const problem = tokenProblem(token);
  if (problem === undefined) return token;
  throw new AuthError(
    `The token of the ${profile.name} environment (from ${tokenOrigin(profile)}) ${problem}: it cannot be sent in a header; nothing was sent.`,
    { hint: `A token is one line of printable characters without spaces. ${tokenHint(profile)}` },
  );
}

function tokenSourceOf(
  settings: EnvironmentConfig | undefined,
  filepath: string | undefined,
  environment: NodeJS.ProcessEnv,
): TokenSource {
  if (nonEmpty(environment.EINVOICE_TOKEN)) return { kind: 'env-override', variable: 'EINVOICE_TOKEN' };
  if (settings?.token && filepath) return { kind: 'file', filepath };
  if (settings?.tokenEnv) return { kind: 'env', variable: settings.tokenEnv };
  if (settings?.tokenCommand) return { kind: 'command', command: settings.tokenCommand };
  return { kind: 'none' };
}

function readToken(
  profile: Omit<Profile, 'readToken'>,
  fileToken: string | undefined,
  environment: NodeJS.ProcessEnv,
  timeoutMs: number | undefined,
): Promise<string> {
  const source = profile.tokenSource;
  switch (source.kind) {
    case 'env-override':
    case 'env': {
      const value = nonEmpty(environment[source.variable]);
      if (value) return Promise.resolve(value);
      return Promise.reject(missingToken(profile, `the variable ${source.variable} is empty or not set`));
    }
    case 'file':
      return fileToken
        ? Promise.resolve(fileToken)
        : Promise.reject(missingToken(profile, 'no token in the profile file'));
    case 'command':
      return runTokenCommand(source.command, profile.name, environment, timeoutMs);
    case 'embedded-sandbox':
    case 'none':
      return Promise.reject(missingToken(profile, 'no token source is configured'));
  }
}

/** Where the token came from, for messages. */
function tokenOrigin(profile: Pick<Profile, 'name' | 'tokenSource'>): string {
  const source = profile.tokenSource;
  switch (source.kind) {
    case 'env-override':
    case 'env':
      return `the variable ${source.variable}`;
    case 'file':
      return `environments.${profile.name}.token in ${source.filepath}`;
    case 'command':
      return 'what its tokenCommand printed';
    default:
      return describeTokenSource(source);
  }
}

/** Says which environment has no token and how to give it one. */
export function missingToken(profile: Pick<Profile, 'name' | 'configFile'>, reason: string): AuthError {
  return new AuthError(`No token for the ${profile.name} environment: ${reason}.`, {
    hint: tokenHint({ name: profile.name, configFile: profile.configFile }),
  });
}

/** How to set the token of an environment. */
export function tokenHint(profile: Pick<Profile, 'name' | 'configFile'> & { tokenSource?: TokenSource }): string {
  const source = profile.tokenSource;
  if (source?.kind === 'env-override') return 'The token came from EINVOICE_TOKEN: check its value, or unset it.';
  if (source?.kind === 'env') return `The token came from ${source.variable} (tokenEnv): check its value.`;
  if (source?.kind === 'command') return 'The token came from the tokenCommand: check what it prints.';
  if (source?.kind === 'file')
    return `The token came from ${source.filepath}: check environments.${profile.name}.token.`;
  const where = profile.configFile ?? `a profile file (.einvoicerc; see ${exampleProfileFile})`;
  return (
    `Set EINVOICE_TOKEN, or give environments.${profile.name} one of token, tokenEnv or tokenCommand in ${where}.` +
    '\nsee: einvoice help environment'
  );
}

/**
 * Describes a token source for `config show`, without the token. Given the environment variables, a tokenEnv whose
 * variable is unset says so: the run would fail (exit 3) for want of it.
 */
export function describeTokenSource(source: TokenSource, environment?: NodeJS.ProcessEnv): string {
  switch (source.kind) {
    case 'env-override':
      return `env ${source.variable}`;
    case 'file':
      return `token in ${source.filepath}`;
    case 'env':
      return environment && nonEmpty(environment[source.variable]) === undefined
        ? `env ${source.variable} (tokenEnv), which is not set: commands that send will exit 3`
        : `env ${source.variable} (tokenEnv)`;
    case 'command':
      return 'command (tokenCommand)';
    case 'embedded-sandbox':
      return 'embedded sandbox (a token of its own)';
    case 'none':
      return 'none';
  }
}

function knownEnvironments(config: Config): string[] {
  return [...new Set([sandboxEnvironment, ...Object.keys(config.environments ?? {})])];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() !== '' ? value.trim() : undefined;
}
