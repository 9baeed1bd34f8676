import { readFileSync } from 'node:fs';

/** The package version, read from package.json beside dist/ (so it is right in a clone and once installed). */
export const version: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
