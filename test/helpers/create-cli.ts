import { tempHome } from './cli.js';
import { localProfile, writeProfile } from './profile.js';
import { runSafeMain, type SafeCliOptions } from './safe-cli.js';
import type { TestSandbox } from './sandbox.js';

// For the tests of `einvoice create`: a home whose profile points at a served sandbox, the command
// run against it, and what the sandbox received.

/** A fresh home with `.einvoicerc.json` selecting the `local` environment of `sandbox`, plus `extra` fields. */
export function homeFor(sandbox: TestSandbox, extra: Record<string, unknown> = {}): string {
  const home = tempHome();
  writeProfile(home, { ...localProfile(sandbox.url, sandbox.token), ...extra });
  return home;
}

/** Runs `einvoice create ...args` in this process in `home` (without a terminal), failing the test if a token is printed. */
export function runCreate(home: string, args: string[], options: SafeCliOptions = {}) {
  return runSafeMain(['create', ...args], { ...options, env: { HOME: home, ...options.env } });
}

/** The invoices the sandbox holds, and the body of the one created last. */
export async function received(sandbox: TestSandbox) {
  const invoices = await sandbox.api.invoices();
  return { count: invoices.length, last: invoices.at(-1) };
}
