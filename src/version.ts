import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package version, read from package.json beside dist/ (so it is right in a clone and once installed). */
export const version: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The example profile file shipped beside dist/, named in hints so a merchant can find it once installed. */
export const exampleProfileFile: string = fileURLToPath(new URL('../.eintvoicerc.example', import.meta.url));
