import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { record, writeNdjson } from '../bulk/helpers.js';
import { sendJson, serversClosedAfterEach, type TestHandler } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';
import { newToken } from '../helpers/secrets.js';

// A service that puts the bearer token into its error answers (a message that quotes the request, a proxy that
// echoes the Authorization header): einvoice prints what the service said, with the token shown as ***, on every
// path that prints it, so that an unattended run's log can be shared.

const token = newToken('echoed');
const serve = serversClosedAfterEach();

/** Answers every request with `status` and a body whose message, field errors and code hold the token as sent. */
function echoing(status: number): TestHandler {
  return (request, response) => {
    const sent = String(request.headers.authorization).replace(/^Bearer /, '');
    sendJson(response, status, {
      code: `E-${sent}`,
      message: `token ${sent} is not valid here`,
      errors: [{ field: `customer.${sent}`, message: `was sent with ${sent}` }],
    });
  };
}

async function homeAnswering(status: number) {
  const server = await serve(echoing(status));
  const home = tempHome();
  writeProfile(home, localProfile(server.url, token));
  return { server, home };
}

/** Runs einvoice in `home`; `runInProcess` fails the test as well if the token is printed. */
async function run(home: string, args: string[], env: Record<string, string> = {}) {
  const result = await runInProcess(args, { env: { HOME: home, ...env } });
  expect(result.stdout).not.toContain(token);
  expect(result.stderr).not.toContain(token);
  return result;
}

const single = [
  ...['create', 'single', '--customer-name', 'Mona Adel', '--customer-mobile', '+201001234567', '--amount', '250'],
  ...['--sending-date', '2030-05-01', '--release-date', '2030-05-01', '--expiry-date', '2030-05-31'],
  ...['--note', 'Order 77', '--business-reference', 'INV-77', '--yes'],
];
const recurring = [
  ...['create', 'recurring', '--cycle-type', 'WEEK', '--cycle-value', '2'],
  ...['--discount-value', '10', '--discount-type', 'PERCENTAGE'],
  ...single.slice(2),
];
const refund = ['refund', '1000001', '--amount', '5', '--reason', 'Late', '--order-ref', '3700001', '--yes'];

// What each command exits with when the service answers the status: a 4xx is a rejection (4); a 5xx after a create or
// refund was sent leaves its outcome unknown (8), and a read that keeps failing finds the service unavailable (5).
const cases = [
  { status: 400, create: 4, refund: 4, stats: 4 },
  { status: 403, create: 4, refund: 4, stats: 4 },
  { status: 500, create: 8, refund: 8, stats: 5 },
];

describe('a token the service puts into an error answer is shown as ***', () => {
  for (const { status, ...exits } of cases) {
    for (const [name, args, exit] of [
      ['create single', single, exits.create],
      ['create recurring', recurring, exits.create],
      ['refund', refund, exits.refund],
      ['stats', ['stats'], exits.stats],
    ] as const) {
      it(`${name}, answered ${status}, with and without --json`, async () => {
        const { home, server } = await homeAnswering(status);
        for (const json of [[], ['--json']]) {
          const result = await run(home, [...args, ...json]);
          expect(result.code, result.stderr).toBe(exit);
          // The service's words are still there, the token only replaced.
          expect(result.stderr).toContain('token *** is not valid here');
        }
        expect(server.requests.length).toBeGreaterThan(0);
      });
    }
  }

  it('shows field errors of a rejection with the token replaced', async () => {
    const { home } = await homeAnswering(400);
    const result = await run(home, single);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toContain('  customer.***: was sent with ***\n');
  });

  it('a one-character token is replaced where it stands alone, and leaves the words that hold its letter whole', async () => {
    const server = await serve((request, response) => {
      const sent = String(request.headers.authorization).replace(/^Bearer /, '');
      sendJson(response, 400, { message: `token ${sent} was not accepted; the service rejected "${sent}"` });
    });
    const home = tempHome();
    writeProfile(home, localProfile(server.url, 't'));
    const result = await runInProcess(single, { env: { HOME: home } });
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toContain('token *** was not accepted; the service rejected "***"');
  });

  it('a token of full length is replaced even where letters or digits touch it (a header echoed URL-encoded)', async () => {
    const server = await serve((request, response) => {
      const header = encodeURIComponent(String(request.headers.authorization));
      sendJson(response, 400, { message: `no session for ${header}` });
    });
    const home = tempHome();
    writeProfile(home, localProfile(server.url, token));
    const result = await run(home, single);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toContain('no session for Bearer%20***');
  });

  it('a bulk run: its report, its --json records and its GitHub Actions annotations', async () => {
    for (const status of [400, 403, 500]) {
      const server = await serve(echoing(status));
      // The token from the environment, as a workflow passes a secret: one read from a file would be printed once,
      // in the ::add-mask:: line that tells the runner to hide it.
      const home = tempHome();
      const env = { GITHUB_ACTIONS: 'true', EINVOICE_BASE_URL: server.url, EINVOICE_TOKEN: token };
      writeNdjson(home, 'batch.ndjson', [record(1, { businessReference: 'REF-1' }), record(2)]);
      const bulk = ['create', 'single', '--file', 'batch.ndjson', '--yes', '--retries', '0'];
      const reports = ['report.csv', 'report.ndjson', 'report.xml'];
      for (const [index, report] of reports.entries()) {
        const result = await run(home, [...bulk, '--report', report, ...(index === 1 ? ['--json'] : [])], env);
        expect(result.code, result.stderr).toBe(6);
        const written = readFileSync(join(home, report), 'utf8');
        expect(written).toContain('token *** is not valid here');
        expect(written).not.toContain(token);
        if (index === 1) expect(result.stdout).toContain('token *** is not valid here');
        expect(result.stderr).toMatch(/::(error|warning) .*token \*\*\* is not valid here/);
      }
      // The journal, which a workflow may keep as an artifact, holds the same words.
      const journal = readdirSync(home).find((name) => name.endsWith('.journal.ndjson')) as string;
      expect(readFileSync(join(home, journal), 'utf8')).toContain('token *** is not valid here');
      expect(readFileSync(join(home, journal), 'utf8')).not.toContain(token);
      expect(server.requests.length).toBeGreaterThan(0);
    }
  });
});
