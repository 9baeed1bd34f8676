import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  sampleStatistics,
  sendJson,
  startTestServer,
  statisticsFallbackPath,
  statisticsHandler,
  statisticsPath,
  unusedPort,
  type TestHandler,
  type TestServer,
} from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';
import { newToken } from '../helpers/secrets.js';

/** The output with ANSI escape sequences, which colour writes. */
const ansiEscape = new RegExp(`${String.fromCharCode(27)}\\[`);

const stubToken = newToken('stats-stub');
const servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: TestHandler = statisticsHandler()): Promise<TestServer> {
  const server = await startTestServer(handler);
  servers.push(server);
  return server;
}

/** A temp HOME holding a profile whose default `local` environment is `baseUrl`. */
function homeFor(baseUrl: string, token = stubToken): string {
  const home = tempHome();
  writeProfile(home, localProfile(baseUrl, token));
  return home;
}

function stats(home: string, args: string[] = [], env: Record<string, string> = {}) {
  return runInProcess(['stats', ...args], { env: { HOME: home, ...env } });
}

/** The table row of one group, e.g. `row(stdout, 'Paid')`. */
function row(stdout: string, label: string): string {
  return stdout.split('\n').find((line) => line.startsWith(`${label} `)) ?? `(no ${label} row in:\n${stdout})`;
}

describe('stats against a served sandbox', () => {
  let sandbox: TestSandbox;
  let home: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    home = homeFor(sandbox.url, sandbox.token);
    await sandbox.api.createPaidInvoice({ amount: 1234.5 });
    await sandbox.api.createInvoice({ amount: 2000 });
    await sandbox.api.cancel(await sandbox.api.createInvoice({ amount: 500.25 }));
  });
  afterAll(() => sandbox.close());

  it('prints a table of every group with two-decimal amounts and share bars', async () => {
    const result = await stats(home);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')[0]).toMatch(/^Invoices\s+Count\s+Amount\s+Share of amount$/);
    expect(row(result.stdout, 'All')).toMatch(/^All\s+3\s+3,734\.75\s+█{20} 100%$/);
    expect(row(result.stdout, 'Paid')).toMatch(/^Paid\s+1\s+1,234\.50\s+█{6}[▏▎▍▌▋▊▉]? +33%$/);
    expect(row(result.stdout, 'Unpaid')).toMatch(/^Unpaid\s+1\s+2,000\.00\s+█{10}[▏▎▍▌▋▊▉]? +54%$/);
    expect(row(result.stdout, 'Expired')).toMatch(/^Expired\s+0\s+0\.00\s+ {20}\s+0%$/);
    expect(row(result.stdout, 'Refunded')).toMatch(/^Refunded\s+0\s+0\.00\s+ {20}\s+0%$/);
    expect(row(result.stdout, 'Canceled')).toMatch(/^Canceled\s+1\s+500\.25\s+█{2}[▏▎▍▌▋▊▉]? +13%$/);
  });

  it('prints exactly the statistics object with --json, and nothing else on stdout', async () => {
    const result = await stats(home, ['--json']);
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as unknown;
    expect(printed).toEqual(await sandbox.api.statistics());
    expect(printed).toMatchObject({ allInvoices: { totalCount: 3, totalAmount: 3734.75 } });
  });

  it('logs each request and response with --verbose, without the token', async () => {
    const result = await stats(home, ['--verbose']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`> GET ${sandbox.url}${statisticsPath}`);
    expect(result.stderr).toMatch(/< 200 OK .*GET/);
    expect(result.stderr).toContain('> authorization: *** (redacted)');
    expect(result.stderr).toMatch(/^< \{"allInvoices":\{"totalCount":3,/m);
    expect(result.stderr).not.toContain('Bearer');
    expect(row(result.stdout, 'All')).toMatch(/^All\s+3\s/);
  });
});

describe('stats with an expired token', () => {
  it('exits 3 naming the environment and how to set its token', async () => {
    const sandbox = await startTestSandbox();
    try {
      const home = homeFor(sandbox.url, await sandbox.api.issueToken(3600));
      expect((await stats(home)).code).toBe(0);
      await sandbox.api.advanceClock('2h');
      const result = await stats(home);
      expect(result.code, result.stderr).toBe(3);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('The local environment rejected the token (401 Unauthorized)');
      // The hint names where the refused token came from: here, the profile file.
      expect(result.stderr).toMatch(/The token came from \S+\.einvoicerc\.json: check environments\.local\.token\./);
    } finally {
      await sandbox.close();
    }
  });
});

describe('stats with EINVOICE_BASE_URL and no profile file', () => {
  it('the notice names the address used, not the built-in sandbox', async () => {
    const sandbox = await startTestSandbox();
    try {
      const result = await runInProcess(['stats'], {
        env: { EINVOICE_BASE_URL: sandbox.url, EINVOICE_TOKEN: sandbox.token },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(
        `Using ${sandbox.url} from EINVOICE_BASE_URL as the sandbox environment (no profile file found)`,
      );
      expect(result.stderr).not.toContain('built-in sandbox');
    } finally {
      await sandbox.close();
    }
  });
});

describe('stats against the embedded sandbox', () => {
  it('shows the demo invoices with no profile file at all, saying so on stderr', async () => {
    const result = await runInProcess(['stats']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Using the built-in sandbox environment (no profile file found)');
    for (const label of ['All', 'Paid', 'Unpaid', 'Expired', 'Refunded', 'Canceled']) {
      expect(row(result.stdout, label)).toMatch(new RegExp(`^${label}\\s+\\d+\\s+[\\d,]+\\.\\d{2}\\s`));
    }
    expect(row(result.stdout, 'All')).not.toMatch(/^All\s+0\s/);
  });

  it('keeps stdout pure JSON with --json while the notice goes to stderr', async () => {
    const result = await runInProcess(['stats', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('built-in sandbox');
    const printed = JSON.parse(result.stdout) as Record<string, { totalCount: number }>;
    expect(Object.keys(printed)).toEqual([
      'allInvoices',
      'paidInvoices',
      'unpaidInvoices',
      'expiredInvoices',
      'refundedInvoices',
      'canceledInvoices',
    ]);
    expect(printed.allInvoices?.totalCount).toBeGreaterThan(0);
  });
});

describe('stats --fail-if', () => {
  it('exits 7 with a message when a condition holds, still printing the table', async () => {
    const server = await serve();
    const result = await stats(homeFor(server.url), ['--fail-if', 'expired.count>0']);
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toContain('--fail-if condition held: expired.count>0 (is 100)');
    expect(row(result.stdout, 'Expired')).toMatch(/^Expired\s+100\s+123,456\.70/);
  });

  it('reads a condition in any case, and tells an amount as the table does', async () => {
    const server = await serve();
    const result = await stats(homeFor(server.url), ['--fail-if', 'Expired.Amount>100']);
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toContain('--fail-if condition held: Expired.Amount>100 (is 123,456.70)');
  });

  it('exits 0 when no condition holds', async () => {
    const server = await serve();
    const args = ['--fail-if', 'unpaid.amount>=1000000', '--fail-if', 'canceled.count==0'];
    const result = await stats(homeFor(server.url), args);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('exits 2 for an invalid condition, sending nothing', async () => {
    const server = await serve();
    const result = await stats(homeFor(server.url), ['--fail-if', 'expired.cnt>0']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('Invalid --fail-if condition "expired.cnt>0"');
    const slip = await stats(homeFor(server.url), ['--fail-if', 'expird.count>0']);
    expect(slip.code).toBe(2);
    expect(slip.stderr).toContain('did you mean expired?');
    expect(result.stdout).toBe('');
    expect(server.requests).toHaveLength(0);
  });
});

describe('stats over an unreliable network', () => {
  it('falls back to /invoice-api/invoice-statistics when the documented path answers 404', async () => {
    const server = await serve((request, response) =>
      request.path === statisticsFallbackPath
        ? sendJson(response, 200, sampleStatistics())
        : sendJson(response, 404, { message: 'Not Found' }),
    );
    const result = await stats(homeFor(server.url), ['--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(sampleStatistics());
    expect(server.requests.map((request) => request.path)).toEqual([statisticsPath, statisticsFallbackPath]);
  });

  it('exits 5 when nothing listens at the base URL', async () => {
    const port = await unusedPort();
    const result = await stats(homeFor(`http://127.0.0.1:${port}`));
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain(`Cannot reach the service at http://127.0.0.1:${port}: connection refused`);
  });

  it('retries a GET answered 503 and succeeds', async () => {
    const server = await serve((request, response, index) =>
      index === 0 ? sendJson(response, 503, { message: 'busy' }) : statisticsHandler()(request, response, index),
    );
    const result = await stats(homeFor(server.url));
    expect(result.code, result.stderr).toBe(0);
    expect(row(result.stdout, 'All')).toMatch(/^All\s+1,250\s+1,234,567\.50/);
    expect(server.requests).toHaveLength(2);
  });

  it('exits 5 when the service keeps answering 500', async () => {
    const server = await serve((_request, response) => sendJson(response, 500, { message: 'database down' }));
    const result = await stats(homeFor(server.url));
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain(`The service at ${server.url} is unavailable (HTTP 500: database down)`);
    expect(server.requests.length).toBeGreaterThan(1);
  });

  it('refuses a plain http base URL that is not this machine, sending nothing', async () => {
    // 0.0.0.0 is not a loopback name, yet a request to it would reach this server: so none must be seen.
    const server = await serve();
    const inFile = await stats(homeFor(`http://0.0.0.0:${server.port}`));
    expect(inFile.code, inFile.stderr).toBe(2);
    expect(inFile.stderr).toContain(
      'environments.local.baseUrl: must start with https:// (plain http:// only for this machine: 127.0.0.1, localhost)',
    );
    const fromEnvironment = await stats(homeFor(server.url), [], {
      EINVOICE_BASE_URL: `http://0.0.0.0:${server.port}`,
    });
    expect(fromEnvironment.code, fromEnvironment.stderr).toBe(2);
    expect(fromEnvironment.stderr).toContain(`Refusing to send a token over plain http to 0.0.0.0:${server.port}`);
    expect(server.requests).toHaveLength(0);
  });

  it('does not follow a redirect to another origin: exit 4, nothing sent there', async () => {
    const other = await serve();
    const server = await serve((request, response) => {
      response.writeHead(302, { location: `${other.url}${request.path}` });
      response.end();
    });
    const result = await stats(homeFor(server.url), ['--json']);
    expect(result.code, result.stderr).toBe(4);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${stubToken}`);
    expect(other.requests).toEqual([]);
  });
});

describe('stats colour', () => {
  it('colours the table with FORCE_COLOR=1', async () => {
    const server = await serve();
    const result = await stats(homeFor(server.url), [], { FORCE_COLOR: '1' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(ansiEscape);
  });

  it('never colours with NO_COLOR=1, even with FORCE_COLOR=1', async () => {
    const server = await serve();
    const env = { FORCE_COLOR: '1', NO_COLOR: '1' };
    const result = await stats(homeFor(server.url), ['--fail-if', 'all.count>0'], env);
    expect(result.code, result.stderr).toBe(7);
    expect(result.stdout).toContain('All');
    expect(result.stdout).not.toMatch(ansiEscape);
    expect(result.stderr).not.toMatch(ansiEscape);
  });

  it('does not colour output piped to another program', async () => {
    const server = await serve();
    const result = await stats(homeFor(server.url), ['--fail-if', 'all.count>0']);
    expect(result.code, result.stderr).toBe(7);
    expect(result.stdout).toContain('All');
    expect(result.stdout).not.toMatch(ansiEscape);
    expect(result.stderr).not.toMatch(ansiEscape);
  });
});
