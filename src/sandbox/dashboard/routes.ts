import { readPackageFile } from '../../package-files.js';
import { serviceErrorCodes } from '../../schemas/service-error.js';
import type { SandboxApp } from '../app.js';
import { sandboxNow } from '../clock.js';
import { SandboxHttpError, jsonReply, queryOf, validationError, type Reply } from '../http.js';
import { dashboardQuerySchema, maxPageSize } from '../../schemas/sandbox-admin.js';
import { validate } from '../../schemas/validate.js';
import type { Handler, Route } from '../router.js';
import type { ChangeFeed } from './changes.js';
import { dashboardView } from './view.js';

// The dashboard: a page, its style and script, the view it reads and its live events, all under /__sandbox/ (this
// machine only). The page changes the state only through the admin and service routes the CLI uses.

/** The page may load only its own files and talk only to the sandbox that served it; no page may frame it. */
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every dashboard reply. */
export const dashboardHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': contentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** The files the dashboard serves, and their types; nothing else is read from disk. */
const files: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
};

function file(name: string): Handler {
  return async () => fileReply(name);
}

const namedFile: Handler = async ({ params }) => fileReply(params.file ?? '');

async function fileReply(name: string): Promise<Reply> {
  const type = Object.hasOwn(files, name) ? files[name] : undefined;
  if (!type) throw new SandboxHttpError(404, serviceErrorCodes.notFound, `The dashboard has no file ${name}.`);
  const body = await readPackageFile(`dashboard/${name}`);
  return { status: 200, json: '', body, headers: { ...dashboardHeaders, 'content-type': type } };
}

/** Invoices the dashboard shows unless it asks for more. */
const defaultPageSize = 50;

/** How the dashboard shows money and time: the merchant's currency, if any, and time zone. */
export interface DashboardSettings {
  currency?: string;
  timeZone: string;
}

function view(app: SandboxApp, { currency, timeZone }: DashboardSettings): Handler {
  return async ({ req }) => {
    const query = validate(dashboardQuerySchema, queryOf(req));
    if (!query.success) throw validationError(query.issues);
    const filter = { ...query.data, limit: query.data.limit ?? defaultPageSize };
    const page = app.store.read((state) => dashboardView(state, sandboxNow(state.counters()), filter));
    return {
      ...jsonReply(200, { ...page, ...(currency ? { currency } : {}), timeZone }),
      headers: { ...dashboardHeaders },
    };
  };
}

/**
 * The invoices the page shows, as a workbook: the same filter (status, search), all that pass it up to the largest
 * page unless `limit` says fewer.
 */
function workbook(app: SandboxApp, timeZone: string): Handler {
  return async ({ req }) => {
    const query = validate(dashboardQuerySchema, queryOf(req));
    if (!query.success) throw validationError(query.issues);
    const filter = { ...query.data, limit: query.data.limit ?? maxPageSize };
    const { invoices } = app.store.read((state) => state.newest(filter));
    const { writeInvoicesWorkbook } = await import('./workbook.js');
    return {
      status: 200,
      json: '',
      headers: {
        ...dashboardHeaders,
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'content-disposition': 'attachment; filename="invoices.xlsx"',
      },
      stream: (res) => {
        writeInvoicesWorkbook(res, invoices, timeZone).catch(() => res.destroy());
      },
    };
  };
}

function events(feed: ChangeFeed): Handler {
  return async () => ({
    status: 200,
    json: '',
    headers: { ...dashboardHeaders, 'content-type': 'text/event-stream; charset=utf-8' },
    stream: (res) => feed.subscribe(res),
  });
}

/**
 * The dashboard's routes: the page at /__sandbox/ui/, its view (amounts beside the currency, times in the zone), its
 * workbook and its event stream.
 */
export function dashboardRoutes(app: SandboxApp, feed: ChangeFeed, settings: DashboardSettings): Route[] {
  return [
    { path: '/__sandbox/ui', scope: 'admin', methods: { GET: file('index.html') } },
    { path: '/__sandbox/ui/', scope: 'admin', methods: { GET: file('index.html') } },
    // The page's download, beside its own files (it links to nothing elsewhere).
    { path: '/__sandbox/ui/invoices.xlsx', scope: 'admin', methods: { GET: workbook(app, settings.timeZone) } },
    { path: '/__sandbox/ui/:file', scope: 'admin', methods: { GET: namedFile } },
    { path: '/__sandbox/dashboard', scope: 'admin', methods: { GET: view(app, settings) } },
    { path: '/__sandbox/events', scope: 'admin', methods: { GET: events(feed) } },
  ];
}
