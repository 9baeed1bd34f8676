import { describe, expect, it } from 'vitest';
import { journalEntries, records, writeNdjson } from '../bulk/helpers.js';
import {
  sampleStatistics,
  sendJson,
  serversClosedAfterEach,
  statisticsPath,
  type TestServer,
} from '../helpers/http-server.js';
import { join } from 'node:path';
import { runInProcess } from '../helpers/in-process.js';
import { newToken } from '../helpers/secrets.js';
import { folderWithProfile } from '../helpers/profile.js';

// A create or refund never follows a redirect: the customer's data goes only where the merchant pointed it, and a
// 3xx is told as "not done by the service" (exit 4), never as a success another address claimed. A read (stats)
// follows a redirect only within the service's own origin. Each case is a real exchange with small servers.

const serve = serversClosedAfterEach();
const token = newToken('redirect');

const invoiceFlags = [
  ...['--customer-name', 'Mona Adel', '--customer-mobile', '+201001234567', '--amount', '250'],
  ...[
    '--sending-date',
    '2030-05-01',
    '--release-date',
    '2030-05-01',
    '--expiry-date',
    '2030-05-31',
    '--note',
    'Order 77',
    '--yes',
  ],
];

/** A server that would create anything (201 1000042): where a followed redirect would land. */
function elsewhere(): Promise<TestServer> {
  return serve((_request, response) => {
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end('1000042');
  });
}

/** The service, answering every request with `status` and a Location on `target`. */
function redirecting(status: number, target: string): Promise<TestServer> {
  return serve((request, response) => {
    response.writeHead(status, { location: `${target}${request.path}` });
    response.end();
  });
}

describe('a create answered by a redirect', () => {
  for (const status of [307, 303, 308, 301, 302]) {
    it(`${status} to another origin: exit 4, the other origin gets nothing, no invoice named`, async () => {
      const other = await elsewhere();
      const service = await redirecting(status, other.url);
      const cwd = folderWithProfile(service.url, token);
      const result = await runInProcess(['create', 'single', ...invoiceFlags], { cwd, secrets: [token] });
      expect(result.code, result.stderr).toBe(4);
      expect(other.requests).toEqual([]);
      expect(service.requests).toHaveLength(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toContain('1000042');
      expect(result.stderr).toContain(`Not created by the service: it answered HTTP ${status}`);
      expect(result.stderr).toContain(`a redirect to ${other.url}/invoice-api/invoices/single`);
      expect(result.stderr).toContain('nothing was sent there');
    });
  }

  it('to its own origin is not followed either: a create is sent once, where the merchant pointed it', async () => {
    const service = await serve((request, response) => {
      if (request.path === '/invoice-api/invoices/single') {
        response.writeHead(307, { location: '/elsewhere/single' });
        response.end();
      } else {
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end('1000042');
      }
    });
    const cwd = folderWithProfile(service.url, token);
    const result = await runInProcess(['create', 'single', ...invoiceFlags, '--json'], { cwd, secrets: [token] });
    expect(result.code, result.stderr).toBe(4);
    expect(service.requests.map((request) => request.path)).toEqual(['/invoice-api/invoices/single']);
    expect(result.stdout).not.toContain('1000042');
  });

  it('--verbose shows the redirect and that it was not followed', async () => {
    const other = await elsewhere();
    const service = await redirecting(307, other.url);
    const cwd = folderWithProfile(service.url, token);
    const result = await runInProcess(['create', 'single', ...invoiceFlags, '--verbose'], { cwd, secrets: [token] });
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toMatch(/< 307 Temporary Redirect \(\d+ ms\) POST /);
    expect(result.stderr).toContain(`< location: ${other.url}/invoice-api/invoices/single`);
    expect(result.stderr).toContain(`< (redirect not followed: to ${other.url}/invoice-api/invoices/single)`);
  });

  it('in a bulk run: every record failed, the other origin gets nothing, and a rerun sends them again', async () => {
    const other = await elsewhere();
    let redirect = true;
    const service = await serve((request, response) => {
      if (redirect) {
        response.writeHead(307, { location: `${other.url}${request.path}` });
        response.end();
      } else {
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(String(2000000 + service.requests.length));
      }
    });
    const cwd = folderWithProfile(service.url, token);
    // Two of the four have no businessReference: a rerun holds those back if they were journaled as uncertain.
    writeNdjson(cwd, 'batch.ndjson', records(4, 2));
    const args = ['create', 'single', '--file', 'batch.ndjson', '--yes', '--json'];

    const first = await runInProcess(args, { cwd, secrets: [token] });
    expect(first.code, first.stderr).toBe(6);
    expect(other.requests).toEqual([]);
    const report = JSON.parse(first.stdout) as { summary: Record<string, number>; records: Array<{ error?: string }> };
    expect(report.summary).toMatchObject({ created: 0, failed: 4, uncertain: 0 });
    expect(report.records[0]?.error).toContain('Not created by the service: it answered HTTP 307');
    const journal = journalEntries(join(cwd, 'batch.ndjson.local.journal.ndjson'));
    expect(journal.filter((entry) => entry.type === 'failed').map((entry) => entry.status)).toEqual([
      307, 307, 307, 307,
    ]);

    redirect = false;
    const rerun = await runInProcess(args, { cwd, secrets: [token] });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect((JSON.parse(rerun.stdout) as { summary: Record<string, number> }).summary).toMatchObject({ created: 4 });
    expect(other.requests).toEqual([]);
  });
});

describe('a refund answered by a redirect or by an undocumented success', () => {
  const refundArgs = ['refund', '1000007', '--amount', '10', '--reason', 'Late', '--order-ref', 'ORD-1', '--yes'];

  it('a 307 to another origin: exit 4, not refunded, the other origin gets nothing', async () => {
    const other = await serve((_request, response) => sendJson(response, 200, {}));
    const service = await redirecting(307, other.url);
    const cwd = folderWithProfile(service.url, token);
    const result = await runInProcess(refundArgs, { cwd, secrets: [token] });
    expect(result.code, result.stderr).toBe(4);
    expect(other.requests).toEqual([]);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Not refunded by the service: it answered HTTP 307');
  });

  for (const [what, status, body] of [
    ['an empty 201', 201, ''],
    ['an empty 200', 200, ''],
    ['a 200 with a JSON array', 200, '[]'],
    ['a 202 with an empty object', 202, '{}'],
  ] as const) {
    it(`${what}: outcome unknown, exit 8, never "Refunded"`, async () => {
      const service = await serve((_request, response) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(body);
      });
      const cwd = folderWithProfile(service.url, token);
      const result = await runInProcess([...refundArgs, '--json'], { cwd, secrets: [token] });
      expect(result.code, result.stderr).toBe(8);
      expect(JSON.parse(result.stdout)).toEqual({ outcome: 'unknown', invoiceNumber: '1000007' });
      expect(result.stderr).toContain('Outcome unknown: the request was sent, and the refund of invoice 1000007');
      expect(result.stderr).not.toContain('Refunded');
    });
  }

  it('the documented 200 {} is a refund done', async () => {
    const service = await serve((_request, response) => sendJson(response, 200, {}));
    const cwd = folderWithProfile(service.url, token);
    const result = await runInProcess(refundArgs, { cwd, secrets: [token] });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Refunded 10.00 of invoice 1000007');
  });
});

describe('stats and redirects', () => {
  it('follows a redirect within the service origin, with the token, and --verbose shows it', async () => {
    const service = await serve((request, response) => {
      if (request.path === statisticsPath) {
        response.writeHead(302, { location: '/v2/statistics' });
        response.end();
      } else sendJson(response, 200, sampleStatistics());
    });
    const cwd = folderWithProfile(service.url, token);
    const result = await runInProcess(['stats', '--json', '--verbose'], { cwd, secrets: [token] });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ allInvoices: { totalCount: 1250 } });
    expect(service.requests.map((request) => [request.path, request.headers.authorization])).toEqual([
      [statisticsPath, `Bearer ${token}`],
      ['/v2/statistics', `Bearer ${token}`],
    ]);
    expect(result.stderr).toContain(`< 302 Found GET ${service.url}${statisticsPath}`);
    expect(result.stderr).toContain('< (redirect followed: same origin)');
    expect(result.stderr).toContain(`> GET ${service.url}/v2/statistics`);
  });

  it('does not follow one to another origin: exit 4, naming the status and the Location', async () => {
    const other = await serve((_request, response) => sendJson(response, 200, sampleStatistics()));
    const service = await redirecting(302, other.url);
    const cwd = folderWithProfile(service.url, token);
    const result = await runInProcess(['stats'], { cwd, secrets: [token] });
    expect(result.code, result.stderr).toBe(4);
    expect(other.requests).toEqual([]);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `The statistics were not read: it answered HTTP 302 Found, a redirect to ${other.url}${statisticsPath}`,
    );
  });
});
