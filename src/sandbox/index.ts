import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { faultSettingsSchema, type FaultKind } from '../schemas/sandbox-admin.js';
import { isTimeZone, processTimeZone } from '../schemas/time-zone.js';
import { validate } from '../schemas/validate.js';
import { SandboxApp, freshState } from './app.js';
import { newToken } from './auth.js';
import { ChangeFeed } from './dashboard/changes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { FaultInjector } from './faults.js';
import { adminRoutes } from './routes/admin.js';
import { serviceRoutes } from './routes/service.js';
import { createSandboxServer, type SandboxLogEvent } from './server.js';
import { openStore } from './store.js';

export type { FaultKind } from '../schemas/sandbox-admin.js';
export type { SandboxLogEvent } from './server.js';

/** How to run a sandbox. */
export interface SandboxOptions {
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** Port to listen on; default 0 (a free one). */
  port?: number;
  /**
   * Keep the state in this database file, safely shared between processes; absent = in memory only. A file that
   * cannot be used (not a sandbox database, damaged, a newer einvoice's, read-only) is refused with LocalFileError.
   */
  stateFile?: string;
  /** The merchant token accepted; default a new random one (`sbx_...`). */
  token?: string;
  /** Seed a new state (no file, or an empty one) with the demo invoices. */
  demo?: boolean;
  /** Delay every service operation by this many milliseconds. */
  latencyMs?: number;
  /** Probability of each fault per service operation; together at most 1. */
  faults?: Partial<Record<FaultKind, number>>;
  /** Seed of the fault injection (default 1). */
  seed?: number;
  /** Number of the first invoice of a new state: decimal digits (default 1000001). */
  firstInvoiceNumber?: string;
  /** Told of each request answered and each unexpected failure; default: nothing is logged. */
  log?: (event: SandboxLogEvent) => void;
  /** Serve the dashboard at /__sandbox/ui/, with its view and live events (this machine only). */
  ui?: boolean;
  /** The merchant's currency (`EGP`), shown beside amounts on the dashboard; the service's interface names none. */
  currency?: string;
  /**
   * The merchant's time zone (an IANA name, `Africa/Cairo`), whose clock the dashboard and its workbook show times
   * on; default this process's zone (`TZ`, else the system's).
   */
  timeZone?: string;
}

/** A sandbox that is listening. */
export interface RunningSandbox {
  /** Base URL, e.g. `http://127.0.0.1:4010` (no trailing slash). */
  url: string;
  /** The merchant token it accepts. */
  token: string;
  /** The dashboard's address, when it is served (`ui`). */
  dashboardUrl?: string;
  /** Stops accepting, closes idle connections and resolves once the server is closed. */
  close(): Promise<void>;
}

/**
 * Writes the whole state kept in `stateFile` as JSON (`SandboxState`, indented), a piece at a time. A missing file
 * starts as the sandbox would start it (`demo`).
 */
export async function exportSandboxState(options: {
  stateFile: string;
  demo?: boolean;
  write: (text: string) => Promise<void>;
}): Promise<void> {
  const store = await openStore({
    file: resolve(options.stateFile),
    create: () => freshState('1000001', options.demo ?? false),
  });
  try {
    await store.export(options.write);
  } finally {
    store.close();
  }
}

/** Starts the local, stateful implementation of the e-invoice service. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const firstInvoiceNumber = options.firstInvoiceNumber ?? '1000001';
  if (!/^[1-9]\d{0,63}$/.test(firstInvoiceNumber)) {
    throw new RangeError(
      `firstInvoiceNumber must be decimal digits without leading zeros, got '${firstInvoiceNumber}'`,
    );
  }
  const settings = validate(faultSettingsSchema, {
    latencyMs: options.latencyMs,
    faults: options.faults,
    seed: options.seed,
  });
  if (!settings.success) {
    const problems = settings.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    throw new RangeError(`Invalid sandbox fault settings: ${problems}`);
  }
  const token = options.token ?? newToken();
  if (!/^\S+$/.test(token)) throw new RangeError('The sandbox token must be non-empty text without spaces');
  const timeZone = options.timeZone ?? processTimeZone();
  if (!isTimeZone(timeZone)) throw new RangeError(`timeZone must be an IANA time zone, got '${timeZone}'`);

  const stateFile = options.stateFile === undefined ? undefined : resolve(options.stateFile);
  const stored = await openStore({
    file: stateFile,
    create: () => freshState(firstInvoiceNumber, options.demo ?? false),
  });
  const feed = options.ui ? new ChangeFeed(stateFile) : undefined;
  const store = feed ? feed.observe(stored) : stored;
  const faults = new FaultInjector({
    latencyMs: settings.data.latencyMs ?? 0,
    faults: settings.data.faults ?? {},
    seed: settings.data.seed ?? 1,
  });
  const app = new SandboxApp({ store, token, faults, firstInvoiceNumber });
  const { server, close: closeServer } = createSandboxServer(
    app,
    [
      ...serviceRoutes(app),
      ...adminRoutes(app),
      ...(feed ? dashboardRoutes(app, feed, { currency: options.currency, timeZone }) : []),
    ],
    options.log ?? (() => {}),
  );

  // The database closes once the server has: requests under way still use it.
  const close = () => closeServer().then(() => store.close());
  const host = options.host ?? '127.0.0.1';
  server.listen(options.port ?? 0, host);
  await once(server, 'listening').catch((error: unknown) => {
    feed?.close();
    store.close();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  const address = host.includes(':') ? `[${host}]` : host;
  const url = `http://${address}:${port}`;
  if (!feed) return { url, token, close };
  // The dashboard answers this machine only: one listening on every address is opened through loopback.
  const pageAddress = { '0.0.0.0': '127.0.0.1', '::': '[::1]' }[host] ?? address;
  return {
    url,
    token,
    dashboardUrl: `http://${pageAddress}:${port}/__sandbox/ui/`,
    close: () => {
      // Event streams never end on their own; the server closes once they have.
      feed.close();
      return close();
    },
  };
}
