import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleStatistics, sendJson, serversClosedAfterEach, statisticsFallbackPath } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';
import { newToken } from '../helpers/secrets.js';

// `einvoice config check`: one line per check of the selected environment, and an exit code that says which kind
// of problem stops it (0 all pass, 3 the token, 5 the service). TLS: test/e2e/config-check.test.ts.

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
const startServer = serversClosedAfterEach();

/** Runs `config check` against `baseUrl` with `token` in the profile file; fails if the token is printed. */
async function check(baseUrl: string, token: string, args: string[] = []) {
  const home = tempHome();
  writeProfile(home, localProfile(baseUrl, token));
  const result = await runInProcess(['config', 'check', ...args], { home });
  expect(result.stdout).not.toContain(token);
  expect(result.stderr).not.toContain(token);
  return result;
}

/** A JWT (unsigned: only its payload matters here) that expires `inMs` from now. */
function jwt(inMs: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'merchant-7', exp: Math.floor((Date.now() + inMs) / 1000) })}.c2lnbmF0dXJl`;
}

/** A service that takes any token and answers with its Date header `skewMs` off this clock. */
const anyToken = (skewMs = 0) =>
  startServer((request, response) => {
    const date = new Date(Date.now() + skewMs).toUTCString();
    sendJson(response, 200, sampleStatistics(), { date });
  });

describe('einvoice config check', () => {
  it("passes with the sandbox's token: one line per check, exit 0", async () => {
    const result = await check(sandbox.url, sandbox.token);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`local (${sandbox.url})`);
    expect(lines.slice(1).map((line) => line.trim().split(/\s{2,}/)[0])).toEqual([
      '✓ token',
      '- token expiry',
      '✓ service',
      '✓ clock',
      '✓ statistics path',
      '✓ token accepted',
    ]);
    expect(result.stdout).toMatch(/✓ service +http:\/\/127\.0\.0\.1:\d+\/ answers in \d+ ms, over plain http: not TLS/);
    expect(result.stdout).toContain('token in ');
    expect(result.stdout).toContain('invoice-api/invoices/statistics answers');
  });

  it('exits 3 when the service refuses the token, and says so in --json too', async () => {
    const result = await check(sandbox.url, newToken('wrong'), ['--json']);
    expect(result.code).toBe(3);
    const report = JSON.parse(result.stdout) as { ok: boolean; checks: Array<Record<string, string>> };
    expect(report.ok).toBe(false);
    expect(report.checks.find((entry) => entry.check === 'token accepted')).toEqual({
      check: 'token accepted',
      status: 'fail',
      detail: 'refused (HTTP 401)',
    });
    expect(report.checks.find((entry) => entry.check === 'service')?.status).toBe('ok');
    expect(result.stderr).toContain('token accepted: refused (HTTP 401)');
  });

  it('exits 5 when nothing answers at the base address', async () => {
    const server = await startServer();
    await server.close();
    const result = await check(server.url, newToken('unreached'));
    expect(result.code).toBe(5);
    expect(result.stdout).toMatch(/✗ service +http:\/\/127\.0\.0\.1:\d+\/ does not answer: .*ECONNREFUSED/);
    expect(result.stdout).toMatch(/- token accepted +no answer/);
  });

  it("exits 3 for an expired JWT, warns of one that expires within a week, and of a clock off the service's", async () => {
    const service = await anyToken(-5 * 60_000);
    const expired = await check(service.url, jwt(-60_000));
    expect(expired.code).toBe(3);
    expect(expired.stdout).toMatch(/✗ token expiry +expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);

    const soon = await check(service.url, jwt(3 * 86_400_000 + 3_600_000), ['--json']);
    expect(soon.code, soon.stderr).toBe(0);
    const checks = (JSON.parse(soon.stdout) as { checks: Array<Record<string, string>> }).checks;
    expect(checks.find((entry) => entry.check === 'token expiry')).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/\(in 3 days\)$/) as unknown,
    });
    expect(checks.find((entry) => entry.check === 'clock')).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^(299|300|301) s ahead of the service's/) as unknown,
    });

    const later = await check(service.url, jwt(30 * 86_400_000));
    expect(later.stdout).toMatch(/✓ token expiry +expires at .* \(in (29|30) days\)/);

    // One of a unit is said in the singular.
    const tomorrow = await check(service.url, jwt(86_400_000 + 3_600_000));
    expect(tomorrow.stdout).toMatch(/! token expiry +expires at .* \(in 1 day\)$/m);
    const withinTheHour = await check(service.url, jwt(30 * 60_000));
    expect(withinTheHour.stdout).toMatch(/! token expiry +expires at .* \(in 1 hour\)$/m);
  });

  it('names the statistics path that answers, and exits 5 when neither does', async () => {
    const fallbackOnly = await startServer((request, response) => {
      if (request.path === statisticsFallbackPath) sendJson(response, 200, sampleStatistics());
      else sendJson(response, 404, { message: 'no such route' });
    });
    const fallback = await check(fallbackOnly.url, newToken('fallback'));
    expect(fallback.code, fallback.stderr).toBe(0);
    expect(fallback.stdout).toMatch(/✓ statistics path +invoice-api\/invoice-statistics answers/);

    const notTheService = await startServer((_request, response) => sendJson(response, 404, {}));
    const neither = await check(notTheService.url, newToken('neither'));
    expect(neither.code).toBe(5);
    expect(neither.stdout).toMatch(/✗ statistics path +neither statistics path answers/);
  });

  it('exits 3 when the token is not set, naming its source', async () => {
    const home = tempHome();
    writeProfile(home, {
      defaultEnv: 'local',
      environments: { local: { baseUrl: sandbox.url, tokenEnv: 'LOCAL_TOKEN' } },
    });
    const result = await runInProcess(['config', 'check'], { home });
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/✗ token +.*LOCAL_TOKEN/);
    // One sentence, ended once.
    expect(result.stderr).toContain(
      'The local environment failed its check: token: No token for the local environment: the variable LOCAL_TOKEN is empty or not set.\n',
    );
  });
});
