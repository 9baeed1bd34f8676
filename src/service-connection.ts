import { createServiceClient, type ServiceClient } from './api/client.js';
import { sandboxStateFile } from './config/paths.js';
import { tokenHint, type Profile } from './config/profile.js';
import { LocalFileError, UsageError } from './errors.js';
import { isLoopback } from './schemas/loopback.js';

// The composition of a connection: the selected profile becomes a client of the real service, or of the sandbox
// started in this process. Here rather than in src/api, which talks HTTP and knows neither profiles nor the sandbox.

/** A client for the selected environment, and how to let go of it. */
export interface ServiceConnection {
  client: ServiceClient;
  /** Where requests go: the base URL, or the embedded sandbox's address while it runs. */
  baseUrl: string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  timeoutMs?: number;
  maxRetryAfterMs?: number;
  log?: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

/**
 * Connects to the profile's service. For the built-in sandbox with no base URL, the sandbox is started in this
 * process on a loopback port, over the merchant's sandbox state file, and stopped by `close()`.
 */
export async function connectToService(profile: Profile, options: ConnectOptions): Promise<ServiceConnection> {
  const common = {
    environment: profile.name,
    timeoutMs: options.timeoutMs,
    maxRetryAfterMs: options.maxRetryAfterMs,
    log: options.log,
    tokenHint: tokenHint(profile),
  };
  if (profile.isEmbeddedSandbox) {
    const sandbox = await startEmbeddedSandbox(options.env);
    return {
      client: createServiceClient({ ...common, baseUrl: sandbox.url, token: sandbox.token }),
      baseUrl: sandbox.url,
      close: () => sandbox.close(),
    };
  }
  const baseUrl = profile.baseUrl as string;
  return {
    client: createServiceClient({
      ...common,
      baseUrl,
      token: () => profile.readToken({ timeoutMs: options.timeoutMs }),
    }),
    baseUrl,
    close: () => Promise.resolve(),
  };
}

/** Starts the sandbox in this process over the merchant's sandbox state file (a new one gets the demo invoices). */
async function startEmbeddedSandbox(env: NodeJS.ProcessEnv) {
  const { startSandbox } = await import('./sandbox/index.js');
  return startSandbox({ stateFile: sandboxStateFile(env), demo: true }).catch((error: unknown) => {
    throw error instanceof LocalFileError ? error.withRemedies(builtInSandboxRemedies(error, env)) : error;
  });
}

/** The ways out of a built-in sandbox state file that cannot be used: `sandbox reset`, and the variable. */
export function builtInSandboxRemedies(error: LocalFileError, env: NodeJS.ProcessEnv): string[] {
  return [
    ...(error.problem === 'damaged'
      ? ['Or run einvoice sandbox reset: it moves the damaged file aside, keeping it, and starts a new sandbox.']
      : []),
    env.EINVOICE_SANDBOX_STATE
      ? 'EINVOICE_SANDBOX_STATE names this file: set it to another file, or unset it to use the default one.'
      : 'Or set EINVOICE_SANDBOX_STATE to another file, where einvoice then keeps the built-in sandbox.',
  ];
}

/**
 * Connects to the admin API of the selected sandbox: the embedded one, or a sandbox served on this machine.
 * Any other environment is refused, so a real service is never sent sandbox commands.
 */
export async function connectToSandboxAdmin(profile: Profile, env: NodeJS.ProcessEnv) {
  // Loaded here, not with the module: the commands that talk to the service never build the admin API's schemas.
  const { createSandboxAdmin } = await import('./api/sandbox-admin.js');
  if (profile.isEmbeddedSandbox) {
    const sandbox = await startEmbeddedSandbox(env);
    return { admin: createSandboxAdmin(sandbox.url), baseUrl: sandbox.url, close: () => sandbox.close() };
  }
  const baseUrl = profile.baseUrl as string;
  if (!isLoopback(new URL(baseUrl).hostname)) {
    throw new UsageError(`The ${profile.name} environment (${baseUrl}) is not a sandbox on this machine.`, {
      hint: 'Sandbox commands work with --env sandbox, or an environment whose baseUrl is a sandbox on 127.0.0.1.',
    });
  }
  return { admin: createSandboxAdmin(baseUrl), baseUrl, close: () => Promise.resolve() };
}
