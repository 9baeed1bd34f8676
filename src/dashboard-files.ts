import { fileURLToPath } from 'node:url';

/** The sandbox dashboard's page, style and script: plain files shipped as they are, in dashboard/ beside dist/. */
export const dashboardFolder: string = fileURLToPath(new URL('../dashboard/', import.meta.url));
