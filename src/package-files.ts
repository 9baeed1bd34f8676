import { fileURLToPath } from 'node:url';

// Files shipped with the package as they are, found beside dist/ (so they are right in a clone and once installed).

/** The sandbox dashboard's page, style and script, in dashboard/. */
export const dashboardFolder: string = fileURLToPath(new URL('../dashboard/', import.meta.url));

/** The example profile file, named in hints so a merchant can find it once installed. */
export const exampleProfileFile: string = fileURLToPath(new URL('../.eintvoicerc.example', import.meta.url));
