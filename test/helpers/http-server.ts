import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

// Small real HTTP servers on 127.0.0.1 for the edge cases the sandbox does not produce on demand.

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  /** The path with its query, e.g. `/invoice-api/invoices/statistics`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request; `index` counts the requests seen so far, from 0. */
export type TestHandler = (request: RecordedRequest, response: ServerResponse, index: number) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 and an ephemeral port that records each request before `handler` answers it. */
export async function startTestServer(handler: TestHandler = countingHandler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      Promise.resolve(handler(request, res, requests.length - 1)).catch((error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A test file's servers: the function returned starts one, and every one started is closed after each test. */
export function serversClosedAfterEach(): (handler?: TestHandler) => Promise<TestServer> {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (handler) => {
    const server = await startTestServer(handler);
    servers.push(server);
    return server;
  };
}

/** Answers every request with 500, so a test that expects nothing sent sees any request that was. */
export function countingHandler(_request: RecordedRequest, response: ServerResponse): void {
  sendJson(response, 500, { message: 'this test expected no request' });
}

/** Writes `value` as a JSON response. */
export function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(value));
}

/** A port on 127.0.0.1 with nothing listening on it (taken and released again). */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Statistics with amounts that need thousands separators; paid is half of all, unpaid a quarter. */
export function sampleStatistics() {
  return {
    allInvoices: { totalCount: 1250, totalAmount: 1234567.5 },
    paidInvoices: { totalCount: 700, totalAmount: 617283.75 },
    unpaidInvoices: { totalCount: 300, totalAmount: 308641.88 },
    expiredInvoices: { totalCount: 100, totalAmount: 123456.7 },
    refundedInvoices: { totalCount: 50, totalAmount: 61728.35 },
    canceledInvoices: { totalCount: 100, totalAmount: 123456.82 },
  };
}

/** The path of the statistics operation, as the CLI calls it first. */
export const statisticsPath = '/invoice-api/invoices/statistics';
/** The path the spec's sample-response panel shows, which the CLI falls back to on a 404. */
export const statisticsFallbackPath = '/invoice-api/invoice-statistics';

/** A handler that serves `statistics` on the statistics path and 404 elsewhere. */
export function statisticsHandler(statistics: unknown = sampleStatistics()): TestHandler {
  return (request, response) => {
    if (request.method === 'GET' && request.path === statisticsPath) sendJson(response, 200, statistics);
    else sendJson(response, 404, { message: `no route ${request.method} ${request.path}` });
  };
}
