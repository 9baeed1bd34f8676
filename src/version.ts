import { readPackageFileSync } from './package-files.js';

/** The package version, read from the package.json einvoice shipped with (in a clone, once installed, or built in). */
export const version: string = (JSON.parse(readPackageFileSync('package.json').toString('utf8')) as { version: string })
  .version;
