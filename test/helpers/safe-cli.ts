import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { runCli, type CliOptions, type CliResult } from './cli.js';
import { runMain } from './main-cli.js';

// Every run of the CLI goes through `runSafeCli` (spawned) or `runSafeMain` (in this process), which fail the test
// when any token the test knows of shows up in the CLI's output.

const knownTokens = new Set<string>();

/** Registers a token that must never be printed; returns it. Short tokens would match ordinary words. */
export function rememberToken(token: string): string {
  if (token.length < 12) throw new Error(`a test token must be at least 12 characters to be found in output: ${token}`);
  knownTokens.add(token);
  return token;
}

/** A new random token, already registered as a secret. */
export function newToken(label = 'tok'): string {
  return rememberToken(`${label}-${randomBytes(12).toString('hex')}`);
}

export interface SafeCliOptions extends CliOptions {
  /** Further secrets of this run only. */
  secrets?: string[];
}

/**
 * Runs the CLI like `runCli`, then asserts that no known token appears in stdout or stderr: every registered
 * token, every `secrets` entry, the value of every environment variable of the run whose name says TOKEN, and
 * anything shaped like a token the sandbox made.
 */
export async function runSafeCli(args: string[], options: SafeCliOptions = {}): Promise<CliResult> {
  const { secrets = [], ...cliOptions } = options;
  return expectNoSecrets(args, await runCli(args, cliOptions), options.env, secrets);
}

/** Runs the CLI in this process like `runMain`, with the checks of `runSafeCli`. */
export async function runSafeMain(args: string[], options: SafeCliOptions = {}): Promise<CliResult> {
  const { secrets = [], ...cliOptions } = options;
  return expectNoSecrets(args, await runMain(args, cliOptions), options.env, secrets);
}

function expectNoSecrets(
  args: string[],
  result: CliResult,
  env: SafeCliOptions['env'] = {},
  secrets: string[],
): CliResult {
  const fromEnv = Object.entries(env)
    .filter(([name, value]) => /TOKEN/i.test(name) && value !== undefined && value.length >= 12)
    .map(([, value]) => value as string);
  for (const secret of new Set([...knownTokens, ...secrets, ...fromEnv])) {
    expect(result.stdout, `stdout of einvoice ${args.join(' ')} shows a token`).not.toContain(secret);
    expect(result.stderr, `stderr of einvoice ${args.join(' ')} shows a token`).not.toContain(secret);
  }
  // The embedded sandbox makes a random token of its own the test never sees; it has this shape.
  expect(result.stdout).not.toMatch(sandboxTokenShape);
  expect(result.stderr).not.toMatch(sandboxTokenShape);
  return result;
}

/** The shape of the tokens the sandbox makes (`sbx_` and 48 hex digits). */
const sandboxTokenShape = /sbx_[0-9a-f]{48}/;

/** The output with ANSI escape sequences, which colour writes. */
export const ansiEscape = new RegExp(`${String.fromCharCode(27)}\\[`);
