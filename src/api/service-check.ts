import type { TLSSocket } from 'node:tls';
import got, { RequestError, type Response } from 'got';
import { servicePaths } from './paths.js';
import { version } from '../version.js';

// `einvoice config check` asks the service once or twice, as a merchant's integration would, and reports what it
// saw rather than failing on the first problem: how the address answers, the service's clock, which statistics path
// it serves, and whether it takes the token.

/** What one look at the service found. */
export type ServiceProbe =
  | { reached: false; url: string; problem: string; code?: string }
  | {
      reached: true;
      url: string;
      /** The TLS version spoken (`TLSv1.3`); absent over plain http. */
      tls?: string;
      /** Time to the first answer, in milliseconds (DNS, connection, TLS and the request). */
      elapsedMs: number;
      /** The service's clock minus ours, in milliseconds, from its Date header; absent without one. */
      clockSkewMs?: number;
      /** The statistics path that answered other than 404, or undefined when both answered 404. */
      statisticsPath?: string;
      /** The status of the statistics call. */
      status: number;
    };

/** Asks the statistics of the service at `baseUrl` with `token` (none: no Authorization header), without retries. */
export async function probeService(
  baseUrl: string,
  token: string | undefined,
  options: { timeoutMs: number },
): Promise<ServiceProbe> {
  const url = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  let tls: string | undefined;
  const ask = (path: string) =>
    got
      .get(new URL(path, url), {
        headers: {
          'user-agent': `einvoice/${version}`,
          accept: 'application/json',
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        responseType: 'text',
        throwHttpErrors: false,
        followRedirect: false,
        retry: { limit: 0 },
        timeout: { request: options.timeoutMs },
      })
      // Asked while the answer's headers arrive: once the body is read, the connection may be back in the pool.
      .on('response', (response: Response) => {
        tls ??= (response.request.socket as TLSSocket | undefined)?.getProtocol?.() ?? undefined;
      });
  let first: Response<string>;
  const sentAt = Date.now();
  try {
    first = await ask(servicePaths.statistics);
  } catch (error) {
    const code = error instanceof RequestError ? error.code : undefined;
    return { reached: false, url, problem: (error as Error).message, ...(code ? { code } : {}) };
  }
  const answeredAt = Date.now();
  const total = first.timings?.phases.total;
  if (url.startsWith('https:')) tls ??= 'TLS';
  const date = Date.parse(first.headers.date ?? '');
  // The Date header has whole seconds and was written between sending and answering: compared with the midpoint.
  const clockSkewMs = Number.isNaN(date) ? undefined : date - (sentAt + answeredAt) / 2;
  let statisticsPath: string | undefined = servicePaths.statistics;
  let status = first.statusCode;
  if (status === 404) {
    const fallback = await ask(servicePaths.statisticsFallback).catch(() => undefined);
    statisticsPath = fallback && fallback.statusCode !== 404 ? servicePaths.statisticsFallback : undefined;
    status = fallback?.statusCode ?? status;
  }
  return {
    reached: true,
    url,
    ...(tls ? { tls } : {}),
    elapsedMs: Math.round(total ?? answeredAt - sentAt),
    ...(clockSkewMs === undefined ? {} : { clockSkewMs: Math.round(clockSkewMs) }),
    statisticsPath,
    status,
  };
}
