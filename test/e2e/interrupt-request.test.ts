import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serversClosedAfterEach, statisticsPath, type TestHandler } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { keys, terminalSessions } from '../helpers/pty.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { countEntries, records, until, writeNdjson } from '../bulk/helpers.js';
import { runSpawned } from '../helpers/spawned.js';
import { tempHome } from '../helpers/home.js';
import { newToken } from '../helpers/secrets.js';

// Ctrl-C and SIGTERM while a request is in flight: the request is aborted at once, the CLI says what is known
// (nothing sent, or the invoice may exist) and exits 130, or 143 for SIGTERM. The instant is chosen by watching
// the server receive the request, never by sleeping.

const token = newToken('interrupt');
const serve = serversClosedAfterEach();
const terminal = terminalSessions();

/** A service that answers each request after 4 seconds; `answered` counts the answers it gave. */
async function slowService() {
  const state = { answered: 0 };
  const handler: TestHandler = async (request, response) => {
    // The 4-second request of the scenario: the CLI must not wait for it.
    await delay(4_000);
    state.answered += 1;
    response.writeHead(request.path === statisticsPath ? 503 : 201, { 'content-type': 'application/json' });
    response.end('1000001');
  };
  const server = await serve(handler);
  const home = tempHome();
  writeProfile(home, localProfile(server.url, token));
  return { server, home, state };
}

const invoiceFlags = [
  ...['--customer-name', 'Mona Adel', '--customer-mobile', '+201001234567', '--amount', '250'],
  ...['--sending-date', '2030-05-01', '--release-date', '2030-05-01', '--expiry-date', '2030-05-31'],
  ...['--note', 'Order 78', '--yes'],
];

describe('Ctrl-C on a terminal during a request', () => {
  it('aborts a 4-second create at once, says the invoice may already exist, and exits 130', async () => {
    const { server, home, state } = await slowService();
    const session = terminal.start(['create', 'single', ...invoiceFlags], home);
    // The server has the whole request: from here the invoice may exist.
    await until(() => server.requests.length === 1, 'the request to reach the service');
    const pressed = Date.now();
    session.type(keys.ctrlC);
    const { code } = await session.exited;
    expect(code).toBe(130);
    expect(Date.now() - pressed).toBeLessThan(1_000);
    expect(state.answered).toBe(0);
    expect(session.screen()).toContain(
      'Interrupted after the request reached the service: the single invoice may already exist.',
    );
    expect(session.screen()).toContain('may create a second invoice');
  });

  it('ends a stats under its spinner at once (it used to wait for the answer)', async () => {
    const { server, home, state } = await slowService();
    const session = terminal.start(['stats'], home);
    await until(() => server.requests.length === 1, 'the request to reach the service');
    session.type(keys.ctrlC);
    expect((await session.exited).code).toBe(130);
    expect(state.answered).toBe(0);
    expect(session.screen()).toContain('Interrupted.');
  });
});

describe('SIGTERM', () => {
  it('is one Ctrl-C for a create: aborted at once, outcome unknown, exit 143', async () => {
    const { server, home, state } = await slowService();
    const run = runSpawned(['create', 'single', ...invoiceFlags, '--business-reference', 'INV-78'], { home });
    await until(() => server.requests.length === 1, 'the request to reach the service');
    run.child.kill('SIGTERM');
    expect((await run).code).toBe(143);
    expect(state.answered).toBe(0);
    expect(run.output.stderr).toContain('the single invoice may already exist');
    expect(run.output.stderr).toContain('Running the same command again is safe');
  });

  it('ends a command that does not report it itself with 143', async () => {
    const { server, home, state } = await slowService();
    const run = runSpawned(['stats'], { home });
    await until(() => server.requests.length === 1, 'the request to reach the service');
    run.child.kill('SIGTERM');
    expect((await run).code).toBe(143);
    // It ended at once, not after the service's answer.
    expect(state.answered).toBe(0);
    expect(run.output.stderr).toMatch(/\nInterrupted\.\n$/);
  });

  describe('in a bulk run', () => {
    let sandbox: TestSandbox;
    beforeAll(async () => {
      sandbox = await startTestSandbox({ latencyMs: 20 });
    });
    afterAll(() => sandbox.close());

    it('stops gracefully as the first Ctrl-C does, and exits 143', async () => {
      const home = tempHome();
      writeProfile(home, localProfile(sandbox.url, sandbox.token));
      writeNdjson(home, 'batch.ndjson', records(300, 0));
      const journal = join(home, 'batch.ndjson.local.journal.ndjson');
      const run = runSpawned(['create', 'single', '--file', 'batch.ndjson', '--yes', '--concurrency', '2'], { home });
      await until(() => countEntries(journal, 'created') >= 10, '10 created entries in the journal');
      run.child.kill('SIGTERM');
      expect((await run).code).toBe(143);
      // No Ctrl-C was pressed: the note speaks of a signal.
      expect(run.output.stderr).toContain('Stopping: finishing what is in flight (a second signal stops it at once).');
      expect(run.output.stderr).toContain('Interrupted: the requests in flight were finished');
      expect(run.output.stderr).toMatch(/not sent +\d+/);
    });
  });
});
