import { readFileSync, promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Files shipped with einvoice as they are: beside dist/ in a clone and once installed from npm, or inside the
// executable itself, as assets, in a standalone executable (scripts/build-binaries.mjs puts them there). This module
// is the only one that knows the difference.

type Sea = typeof import('node:sea');

/** Node's single executable application API, when this process is one; undefined otherwise. */
const sea: Sea | undefined = (() => {
  const module = process.getBuiltinModule?.('node:sea') as Sea | undefined;
  return module?.isSea() ? module : undefined;
})();

/** True when einvoice runs as a standalone executable. */
export const isStandaloneExecutable = sea !== undefined;

/** A shipped file's bytes, by its path in the package (`package.json`, `dashboard/index.html`). */
export function readPackageFileSync(name: string): Buffer {
  if (sea) return Buffer.from(sea.getAsset(name));
  return readFileSync(new URL(`../${name}`, import.meta.url));
}

/** A shipped file's bytes, by its path in the package, read without blocking. */
export async function readPackageFile(name: string): Promise<Buffer> {
  if (sea) return Buffer.from(sea.getAsset(name));
  // fs.promises, not node:fs/promises: every start reads the version here, and only the dashboard reads this way.
  return fs.readFile(new URL(`../${name}`, import.meta.url));
}

/** The sandbox dashboard's page, style and script, in dashboard/. */
export const dashboardFolder: string = fileURLToPath(new URL('../dashboard/', import.meta.url));

/**
 * The example profile file, named in hints so a merchant can find it once installed. A standalone executable has no
 * folder of its own: it names the file as the release attaches it.
 */
export const exampleProfileFile: string = sea
  ? 'the .eintvoicerc.example attached to each release'
  : fileURLToPath(new URL('../.eintvoicerc.example', import.meta.url));
