import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempHome } from './home.js';
import type { TestSandbox } from './sandbox.js';

export interface ProfileFileOptions {
  /** The file name inside `dir` (default `.einvoicerc.json`); may name a sub-folder. */
  name?: string;
  /** The file mode (default 0o600, as a file holding a token should be). */
  mode?: number;
}

/** Writes a profile file as JSON (or as given text, e.g. YAML) into `dir` and returns its absolute path. */
export function writeProfile(dir: string, content: object | string, options: ProfileFileOptions = {}): string {
  const filepath = join(dir, options.name ?? '.einvoicerc.json');
  mkdirSync(dirname(filepath), { recursive: true });
  writeFileSync(filepath, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  // chmod after writing, since the umask may have narrowed the mode given to writeFileSync.
  chmodSync(filepath, options.mode ?? 0o600);
  return filepath;
}

/** A profile whose `local` environment (the default) points at `baseUrl` with `token` written in the file. */
export function localProfile(baseUrl: string, token: string) {
  return { defaultEnv: 'local', environments: { local: { baseUrl, token } } };
}

/** A fresh home whose `.einvoicerc.json` selects the `local` environment at `baseUrl` with `token`. */
export function folderWithProfile(baseUrl: string, token: string): string {
  const home = tempHome();
  writeProfile(home, localProfile(baseUrl, token));
  return home;
}

/** A fresh home whose `.einvoicerc.json` selects the `local` environment of `sandbox`, plus `extra` fields. */
export function homeFor(sandbox: TestSandbox, extra: Record<string, unknown> = {}): string {
  const home = tempHome();
  writeProfile(home, { ...localProfile(sandbox.url, sandbox.token), ...extra });
  return home;
}
