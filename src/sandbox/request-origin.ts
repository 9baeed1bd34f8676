import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { isLoopback } from '../schemas/loopback.js';

// The sandbox trusts only its own machine. A web page open in the developer's browser can send requests to it: a
// form or fetch() from another site (a foreign Origin), or a page whose DNS name is rebound to 127.0.0.1 (its Host
// is that name). Neither is a request of the CLI, a test or a page the sandbox serves itself.

/** Where a request arrived: the address and port the sandbox listens on for it. */
export interface LocalEnd {
  address?: string;
  port?: number;
}

/** Content types a browser sends cross-site without asking first (an HTML form, or fetch in no-cors mode). */
const simpleContentTypes = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/** True for a name or address of this machine: localhost (and its subdomains), 127.0.0.0/8, ::1. */
function isLoopbackHost(hostname: string): boolean {
  return isLoopback(hostname) || hostname.toLowerCase().endsWith('.localhost');
}

/** The host and port of a `Host` header or an origin's authority; undefined when it does not parse. */
function authority(text: string): { hostname: string; port: number } | undefined {
  try {
    const url = new URL(`http://${text}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
    return { hostname: url.hostname, port: url.port === '' ? 80 : Number(url.port) };
  } catch {
    return undefined;
  }
}

/**
 * True when `hostname:port` names this sandbox: a loopback name or address, or the IP address it listens on
 * (a sandbox served on another interface with --host), always with its port. A DNS name other than localhost
 * could be rebound by anyone, so it never is.
 */
function namesThisSandbox(target: { hostname: string; port: number }, local: LocalEnd): boolean {
  if (target.port !== local.port) return false;
  if (isLoopbackHost(target.hostname)) return true;
  const address = target.hostname.replace(/^\[|\]$/g, '');
  const listening = (local.address ?? '').replace(/^::ffff:/, '');
  return isIP(address) !== 0 && address === listening;
}

/** Why a request is refused: 403 for a request from elsewhere, 415 for a body type an HTML form can send. */
export interface RequestRefusal {
  status: 403 | 415;
  message: string;
}

const crossSite = (): RequestRefusal => ({
  status: 403,
  message: 'The sandbox refuses requests that change its state from another web site.',
});

/**
 * Why the sandbox refuses a request that may come from a web page, or undefined when it is its own machine's: the
 * Host must name this sandbox; a request that changes state (any method but GET and HEAD) must not come from
 * another origin (an `Origin` header other than this sandbox's own, or a browser's cross-site `Sec-Fetch-Site`)
 * nor carry a body type an HTML form can send. The CLI sends no Origin; a page the sandbox serves sends its own.
 */
export function untrustedRequestProblem(
  request: { method?: string; headers: IncomingHttpHeaders },
  local: LocalEnd,
): RequestRefusal | undefined {
  const host = request.headers.host;
  const target = host === undefined ? undefined : authority(host);
  if (!target || !namesThisSandbox(target, local)) {
    return {
      status: 403,
      message: `The sandbox answers only requests addressed to this machine (Host 127.0.0.1:${local.port} or localhost:${local.port}).`,
    };
  }
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const match = /^http:\/\/([^/]+)$/i.exec(origin);
    const from = match ? authority(match[1] as string) : undefined;
    if (!from || !namesThisSandbox(from, local)) return crossSite();
  }
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return crossSite();
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (simpleContentTypes.has(mediaType)) {
    return {
      status: 415,
      message: `The sandbox refuses ${mediaType} requests, which any web page can send: send JSON (Content-Type: application/json).`,
    };
  }
  return undefined;
}
