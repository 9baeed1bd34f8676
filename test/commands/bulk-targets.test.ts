import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/bulk/journal-state.js';
import { sendJson, serversClosedAfterEach, unusedPort } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { journalEntries, records, writeNdjson } from '../bulk/helpers.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';

// A bulk run reports only what it did: a journal belongs to one target (environment, service, kind), a token that
// cannot be sent stops the run before anything is journaled, and a service that is clearly down stops the run
// early with every unsent record kept for the next run.

interface JsonReport {
  summary: Record<string, number>;
  records: Array<{ record: number; status: string; error?: string }>;
}

const serve = serversClosedAfterEach();

function create(home: string, extra: string[] = [], env: Record<string, string> = {}) {
  return runInProcess(['create', 'single', '--file', 'batch.ndjson', '--yes', ...extra], {
    env: { HOME: home, ...env },
  });
}

describe('a journal belongs to one target', () => {
  let a: TestSandbox;
  let b: TestSandbox;

  beforeAll(async () => {
    [a, b] = await Promise.all([startTestSandbox(), startTestSandbox()]);
  });
  afterAll(() => Promise.all([a.close(), b.close()]));

  it('same file against sandbox A then B: B gets every invoice; a rerun against A creates nothing new', async () => {
    const home = tempHome();
    writeProfile(home, {
      defaultEnv: 'a',
      environments: { a: { baseUrl: a.url, token: a.token }, b: { baseUrl: b.url, token: b.token } },
    });
    // Every fourth record has no businessReference: only the journal keeps it from being created twice.
    writeNdjson(home, 'batch.ndjson', records(20, 4));

    const first = await create(home, ['--env', 'a']);
    expect(first.code, first.stderr).toBe(0);
    expect(await a.api.invoices()).toHaveLength(20);

    const second = await create(home, ['--env', 'b', '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect((JSON.parse(second.stdout) as JsonReport).summary).toMatchObject({ created: 20, createdEarlier: 0 });
    expect(await b.api.invoices()).toHaveLength(20);
    expect(second.stderr).toContain('Journal: batch.ndjson.b.journal.ndjson');

    const again = await create(home, ['--env', 'a', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as JsonReport).summary).toMatchObject({ created: 0, createdEarlier: 20 });
    expect(await a.api.invoices()).toHaveLength(20);

    // Each journal names its target.
    for (const [name, sandbox] of [
      ['a', a],
      ['b', b],
    ] as const) {
      const state = await readJournal(join(home, `batch.ndjson.${name}.journal.ndjson`));
      expect(state?.target).toEqual({ environment: name, service: `${sandbox.url}/` });
    }
  });

  it('refuses a journal of another service under the same environment name, and says the way out', async () => {
    const home = tempHome();
    writeProfile(home, localProfile(a.url, a.token));
    writeNdjson(
      home,
      'batch.ndjson',
      records(5, 0).map((entry, index) => ({ ...entry, businessReference: `MOVED-${index + 1}` })),
    );
    const first = await create(home);
    expect(first.code, first.stderr).toBe(0);
    const before = (await b.api.invoices()).length;

    const moved = await create(home, [], { EINVOICE_BASE_URL: b.url, EINVOICE_TOKEN: b.token });
    expect(moved.code, moved.stderr).toBe(2);
    expect(moved.stderr).toContain(
      `The journal batch.ndjson.local.journal.ndjson belongs to the local environment at ${a.url}/, not to its service now at ${b.url}/; nothing was sent.`,
    );
    expect(moved.stderr).toContain('--journal PATH');
    expect(await b.api.invoices()).toHaveLength(before);

    const own = await create(home, ['--journal', 'to-b.journal.ndjson'], {
      EINVOICE_BASE_URL: b.url,
      EINVOICE_TOKEN: b.token,
    });
    expect(own.code, own.stderr).toBe(0);
    expect(await b.api.invoices()).toHaveLength(before + 5);
  });

  it('refuses a journal of another kind, naming the command each belongs to; nothing is sent', async () => {
    const home = tempHome();
    writeProfile(home, localProfile(a.url, a.token));
    writeNdjson(home, 'batch.ndjson', records(2, 0));
    expect((await create(home)).code).toBe(0);
    const journal = 'batch.ndjson.local.journal.ndjson';
    const before = journalEntries(join(home, journal)).length;

    const refund = await runInProcess(['refund', '--file', 'batch.ndjson', '--yes', '--journal', journal], {
      env: { HOME: home },
    });
    expect(refund.code, refund.stderr).toBe(2);
    expect(refund.stderr).toContain(`The journal ${journal} belongs to \`einvoice create single\`; nothing was sent.`);
    expect(refund.stderr).toContain('To run `einvoice refund --file` on the same file, give it a journal of its own');
    expect(journalEntries(join(home, journal))).toHaveLength(before);
  });
});

describe('a token that cannot be sent', () => {
  it('stops a 50-record run before any request: exit 3, nothing journaled, nothing uncertain', async () => {
    const server = await serve();
    const home = tempHome();
    writeNdjson(home, 'batch.ndjson', records(50, 5));
    const result = await create(home, ['--json'], { EINVOICE_BASE_URL: server.url, EINVOICE_TOKEN: 'a\nb' });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('(from the variable EINVOICE_TOKEN) has 2 lines');
    expect(server.requests).toHaveLength(0);
    expect((JSON.parse(result.stdout) as JsonReport).summary).toMatchObject({ notSent: 50, uncertain: 0, failed: 0 });
    const journal = join(home, 'batch.ndjson.sandbox.journal.ndjson');
    expect(journalEntries(journal).filter((entry) => entry.type === 'uncertain' || entry.type === 'sent')).toEqual([]);
  });
});

describe('a service that is clearly down stops the run early', () => {
  it('300 records against a closed port: exit 5 in under 10 s, every record resumable', async () => {
    const port = await unusedPort();
    const home = tempHome();
    writeProfile(home, localProfile(`http://127.0.0.1:${port}`, 'closed-port-token-0123456789'));
    writeNdjson(home, 'batch.ndjson', records(300, 3));

    const started = Date.now();
    const result = await create(home, ['--json']);
    const took = Date.now() - started;
    expect(result.code, result.stderr).toBe(5);
    expect(took).toBeLessThan(10_000);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.at(-2)).toMatch(
      /^✖ Stopped after 10 failed attempts in a row that every record would meet \(connection refused\); [\d,]+ records were not sent, and a rerun sends them\.$/,
    );
    const { summary } = JSON.parse(result.stdout) as JsonReport;
    expect(summary).toMatchObject({ total: 300, created: 0, uncertain: 0 });
    expect(summary.failed! + summary.notSent!).toBe(300);
    expect(summary.notSent).toBeGreaterThan(250);

    // The service comes back on the same port: the next run creates every record.
    const created: string[] = [];
    const back: Server = createServer((request, response) => {
      request.resume().on('end', () => {
        created.push(String(created.length + 1));
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(String(1_000_000 + created.length));
      });
    });
    await new Promise<void>((resolve) => back.listen(port, '127.0.0.1', resolve));
    try {
      const rerun = await create(home, ['--json']);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect((JSON.parse(rerun.stdout) as JsonReport).summary).toMatchObject({ created: 300 });
      expect(created).toHaveLength(300);
    } finally {
      back.closeAllConnections();
      await new Promise<void>((resolve) => back.close(() => resolve()));
    }
  });

  it('an HTML login page in the service’s place stops the run without marking every record uncertain', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><body><form action="/login">Sign in</form></body></html>');
    });
    const home = tempHome();
    writeProfile(home, localProfile(server.url, 'login-page-token-0123456789'));
    writeNdjson(home, 'batch.ndjson', records(300, 2));
    const result = await create(home, ['--json', '--concurrency', '4']);
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain("the answer is an HTML page (HTTP 200), not the service's JSON");
    const { summary } = JSON.parse(result.stdout) as JsonReport;
    // Only what was sent before the stop may be uncertain; the rest is kept, not sent, for the next run.
    expect(summary.uncertain).toBeLessThanOrEqual(10 + 4);
    expect(summary.notSent).toBeGreaterThan(250);
    expect(server.requests.length).toBeLessThan(10 + 4 + 1);
  });

  it('--stop-after-failures 0 never stops; a Retry-After over the cap fails a record at once as retryable', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 503, { message: 'maintenance' }, { 'retry-after': '3600' }),
    );
    const home = tempHome();
    writeProfile(home, localProfile(server.url, 'retry-after-token-0123456789'));
    writeNdjson(home, 'batch.ndjson', records(12, 0));
    const result = await create(home, ['--json', '--stop-after-failures', '0']);
    expect(result.code, result.stderr).toBe(6);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.summary).toMatchObject({ failed: 12, uncertain: 0, notSent: 0 });
    expect(report.records[0]?.error).toContain('it asks to retry after 3600 s, more than the 60 s einvoice waits');
    // One attempt each: none waited for the hour, none was retried.
    expect(server.requests).toHaveLength(12);
    expect(existsSync(join(home, 'batch.ndjson.local.journal.ndjson'))).toBe(true);
  });
});

describe('what a run that did not finish tells the merchant to do', () => {
  const serve = serversClosedAfterEach();

  it('a few records against a closed port: every record was tried, and a rerun sends them again', async () => {
    const port = await unusedPort();
    const home = tempHome();
    writeProfile(home, localProfile(`http://127.0.0.1:${port}`, 'closed-port-token-0123456789'));
    writeNdjson(home, 'batch.ndjson', records(5));
    const result = await create(home);
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain(
      '(connection refused); every record had been tried, and a rerun sends the failed ones again.',
    );
    expect(result.stderr).not.toContain('0 records were not sent');
  });

  it('uncertain records with a businessReference are sent again by the same command, without --resend-uncertain', async () => {
    // A success status whose body is not an invoice number: each record may have been created.
    const server = await serve((_request, response) => {
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
    const home = tempHome();
    writeProfile(home, localProfile(server.url, 'uncertain-token-0123456789'));
    writeNdjson(home, 'batch.ndjson', records(4, 2));
    const result = await create(home);
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toContain(
      'Run the same command again for the uncertain ones with a businessReference: the service refuses a duplicate of them.',
    );
    expect(result.stderr).toContain('Look up the uncertain ones without a businessReference in the merchant dashboard');
    expect(result.stderr).toContain('--mark-created ROW if it was created');
  });
});
