import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';

// The tokens no run of the CLI may print: both runners (`runInProcess`, `runSpawned`) check every output for them.

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

/** The shape of the tokens the sandbox makes (`sbx_` and 48 hex digits), which the test never sees. */
const sandboxTokenShape = /sbx_[0-9a-f]{48}/;

/**
 * Fails the test if the output of `einvoice ...args` shows a secret: every registered token, every entry of
 * `secrets`, the value of every variable of `env` whose name says TOKEN, and anything shaped like a sandbox's token,
 * outside the lines that ask GitHub Actions to mask a value.
 */
export function expectNoSecrets(
  args: string[],
  output: { stdout: string; stderr: string },
  env: Record<string, string | undefined> = {},
  secrets: string[] = [],
): void {
  const fromEnv = Object.entries(env)
    .filter(([name, value]) => /TOKEN/i.test(name) && value !== undefined && value.length >= 12)
    .map(([, value]) => value as string);
  // GitHub Actions takes `::add-mask::VALUE` from a step's output and never shows it: the one place a token goes.
  const shown = (text: string) => text.replace(/^::add-mask::.*$/gm, '');
  const [stdout, stderr] = [shown(output.stdout), shown(output.stderr)];
  for (const secret of new Set([...knownTokens, ...secrets, ...fromEnv])) {
    expect(stdout, `stdout of einvoice ${args.join(' ')} shows a token`).not.toContain(secret);
    expect(stderr, `stderr of einvoice ${args.join(' ')} shows a token`).not.toContain(secret);
  }
  expect(stdout, `stdout of einvoice ${args.join(' ')} shows a sandbox token`).not.toMatch(sandboxTokenShape);
  expect(stderr, `stderr of einvoice ${args.join(' ')} shows a sandbox token`).not.toMatch(sandboxTokenShape);
}
