import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, serversClosedAfterEach, unusedPort } from '../helpers/http-server.js';
import { homeFor, localProfile, writeProfile } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';
import { newToken } from '../helpers/secrets.js';

// One create or refund says which of three things happened: created, not sent, or "may have been sent" (exit 8,
// outcome unknown), with what is safe to do next. Each case is a real exchange with the sandbox or a small server.

const stubToken = newToken('outcome-stub');
const serve = serversClosedAfterEach();

function homeAt(baseUrl: string, token = stubToken): string {
  const home = tempHome();
  writeProfile(home, localProfile(baseUrl, token));
  return home;
}

const invoiceFlags = [
  ...['--customer-name', 'Mona Adel', '--customer-mobile', '+201001234567', '--amount', '250'],
  ...['--sending-date', '2030-05-01', '--release-date', '2030-05-01', '--expiry-date', '2030-05-31'],
  ...['--note', 'Order 77', '--yes'],
];

describe('a create whose answer is lost after the service committed it (drop-after-commit)', () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ faults: { 'drop-after-commit': 1 } });
  });
  afterAll(() => sandbox.close());
  afterEach(() => sandbox.api.reset(false));

  it('exits 8 and says the invoice may already exist; without a businessReference a rerun may make a second', async () => {
    const result = await runInProcess(['create', 'single', ...invoiceFlags], { home: homeFor(sandbox) });
    expect(result.code, result.stderr).toBe(8);
    expect(result.stderr).toContain('Outcome unknown: the request was sent, and the single invoice may already exist.');
    expect(result.stderr).toContain('the connection was dropped');
    expect(result.stderr).toContain('running the same command again may create a second invoice');
    expect(result.stdout).toBe('');
    // The sandbox committed it: the words were true.
    expect(await sandbox.api.invoices()).toHaveLength(1);
  });

  it('says a rerun is safe with a businessReference, and --json carries "outcome":"unknown"', async () => {
    const result = await runInProcess(
      ['create', 'single', ...invoiceFlags, '--business-reference', 'INV-77', '--json'],
      { home: homeFor(sandbox) },
    );
    expect(result.code, result.stderr).toBe(8);
    expect(JSON.parse(result.stdout)).toEqual({ outcome: 'unknown', kind: 'single', businessReference: 'INV-77' });
    expect(result.stderr).toContain('Running the same command again is safe');
    expect(result.stderr).toContain('spec rule 2.3');
    expect(await sandbox.api.invoices()).toHaveLength(1);
  });
});

describe('a refund whose answer is lost after the service made it', () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  it('exits 8 and says the refund may already exist', async () => {
    const { invoiceNumber, orderReferenceNumber } = await sandbox.api.createPaidInvoice({ amount: 80 });
    await setFaults(sandbox.url, { faults: { 'drop-after-commit': 1 } });
    const result = await runInProcess(
      ['refund', invoiceNumber, '--amount', '80', '--reason', 'Late', '--order-ref', orderReferenceNumber, '--yes'],
      { env: { HOME: homeFor(sandbox) } },
    );
    await setFaults(sandbox.url, { faults: { 'drop-after-commit': 0 } });
    expect(result.code, result.stderr).toBe(8);
    expect(result.stderr).toContain(`the refund of invoice ${invoiceNumber} may already exist`);
    expect(result.stderr).toContain(
      `Check whether invoice ${invoiceNumber} is refunded before running the refund again`,
    );
    expect((await sandbox.api.invoice(invoiceNumber))?.status).toBe('REFUNDED');
  });
});

async function setFaults(url: string, settings: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });
  if (!response.ok) throw new Error(`POST /__sandbox/faults answered ${response.status}`);
}

describe('other answers a create cannot trust', () => {
  it('a 201 whose body is not an invoice number: outcome unknown', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end('{"status":"ok"}');
    });
    const result = await runInProcess(['create', 'single', ...invoiceFlags], { home: homeAt(server.url) });
    expect(result.code, result.stderr).toBe(8);
    expect(result.stderr).toContain('may already exist');
    expect(result.stderr).toContain('not an invoice number');
    expect(server.requests).toHaveLength(1);
  });

  it('no answer within --timeout after the body was written: outcome unknown, one attempt of 1 s', async () => {
    const server = await serve(() => undefined);
    const timed = await runInProcess(['--timeout', '1', 'create', 'single', ...invoiceFlags], {
      env: { HOME: homeAt(server.url) },
    });
    expect(timed.code, timed.stderr).toBe(8);
    expect(timed.stderr).toContain('did not answer in time (allowed 1 s)');
    expect(timed.stderr).toContain('may already exist');
    expect(server.requests).toHaveLength(1);
  });

  it('connection refused: not sent, exit 5, never "may"', async () => {
    const home = homeAt(`http://127.0.0.1:${await unusedPort()}`);
    const result = await runInProcess(['create', 'single', ...invoiceFlags], { home });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain('connection refused. Nothing was sent.');
    expect(result.stderr).not.toContain('may');
  });

  it('host not found, and a TLS handshake that fails: not sent, exit 5', async () => {
    const unknownHost = await runInProcess(['create', 'single', ...invoiceFlags], {
      home: homeAt('https://einvoice-test.invalid'),
    });
    expect(unknownHost.code, unknownHost.stderr).toBe(5);
    expect(unknownHost.stderr).toMatch(/: (host not found|host name lookup failed)\. Nothing was sent\./);

    // https:// to a server that speaks plain HTTP: the handshake fails before anything is written.
    const plain = await serve();
    const tls = await runInProcess(['create', 'single', ...invoiceFlags], {
      home: homeAt(plain.url.replace('http:', 'https:')),
    });
    expect(tls.code, tls.stderr).toBe(5);
    expect(tls.stderr).toContain('TLS failed (EPROTO): the server did not complete a TLS handshake. Nothing was sent.');
    expect(plain.requests).toHaveLength(0);
  });

  it('a 429 said the request was not taken: exit 5, not uncertain, and says so', async () => {
    const server = await serve((_request, response) => sendJson(response, 429, { message: 'slow down' }));
    const result = await runInProcess(['create', 'single', ...invoiceFlags, '--json'], { home: homeAt(server.url) });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toContain('may already exist');
    expect(result.stderr).toContain(
      '(HTTP 429: slow down). The service turned the request away: nothing was created or changed.',
    );
    expect(result.stderr).toContain('Running the command again is safe.');
  });

  it('a 503 with Retry-After, too long to wait for, is told as turned away; one without it as outcome unknown', async () => {
    const later = await serve((_request, response) =>
      sendJson(response, 503, { message: 'Down for maintenance.' }, { 'retry-after': '3600' }),
    );
    const turnedAway = await runInProcess(['create', 'single', ...invoiceFlags], { home: homeAt(later.url) });
    expect(turnedAway.code, turnedAway.stderr).toBe(5);
    expect(turnedAway.stderr).toContain('(HTTP 503: Down for maintenance)');
    expect(turnedAway.stderr).not.toContain('.).');
    expect(turnedAway.stderr).toContain('The service turned the request away: nothing was created or changed.');

    const failing = await serve((_request, response) => sendJson(response, 503, { message: 'Down.' }));
    const unknown = await runInProcess(['create', 'single', ...invoiceFlags], { home: homeAt(failing.url) });
    expect(unknown.code, unknown.stderr).toBe(8);
    expect(unknown.stderr).toContain('may already exist');
    expect(unknown.stderr).not.toContain('turned the request away');
  });
});

describe('a token that cannot be put in a header', () => {
  it('from EINVOICE_TOKEN: exit 3 naming the variable, before any request', async () => {
    const server = await serve();
    const result = await runInProcess(['create', 'single', ...invoiceFlags], {
      env: { HOME: tempHome(), EINVOICE_BASE_URL: server.url, EINVOICE_TOKEN: 'first-line\nsecond-line' },
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('(from the variable EINVOICE_TOKEN) has 2 lines');
    expect(result.stderr).toContain('nothing was sent');
    expect(server.requests).toHaveLength(0);
  });

  it('from a profile with a space inside: exit 3 naming the file', async () => {
    const server = await serve();
    const home = tempHome();
    const file = writeProfile(home, localProfile(server.url, 'two words-0123456789'));
    const result = await runInProcess(['stats'], { env: { HOME: home } });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain(`(from environments.local.token in ${file}) contains a space`);
    expect(server.requests).toHaveLength(0);
  });

  it('from a tokenCommand that prints two lines: exit 3 naming the tokenCommand', async () => {
    const server = await serve();
    const home = tempHome();
    writeProfile(home, {
      defaultEnv: 'local',
      environments: { local: { baseUrl: server.url, tokenCommand: 'echo line-one-token; echo line-two-token' } },
    });
    const result = await runInProcess(
      ['refund', '1000001', '--amount', '5', '--reason', 'x', '--order-ref', '1', '--yes'],
      {
        env: { HOME: home },
        secrets: ['line-one-token', 'line-two-token'],
      },
    );
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('(from what its tokenCommand printed) has 2 lines');
    expect(server.requests).toHaveLength(0);
  });
});

describe('time limits say what they are', () => {
  it('a tokenCommand follows --timeout and says it timed out after N seconds', async () => {
    const server = await serve();
    const home = tempHome();
    writeProfile(home, {
      defaultEnv: 'local',
      environments: { local: { baseUrl: server.url, tokenCommand: 'sleep 20; echo late-token-0123456789' } },
    });
    const result = await runInProcess(['--timeout', '1', 'stats'], { env: { HOME: home } });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('The tokenCommand of the local environment timed out after 1 second.');
    expect(server.requests).toHaveLength(0);
  });

  it('a stats that retried says how many attempts it made, each within --timeout', async () => {
    const server = await serve(() => undefined);
    const result = await runInProcess(['--timeout', '1', 'stats'], { env: { HOME: homeAt(server.url) } });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain('did not answer in time (3 attempts, each allowed 1 s)');
    expect(server.requests).toHaveLength(3);
  }, 60_000);

  it('a stats told to come back in an hour fails at once, naming --max-retry-after', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 503, { message: 'maintenance' }, { 'retry-after': '3600' }),
    );
    const result = await runInProcess(['stats'], { env: { HOME: homeAt(server.url) } });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain(
      'it asks to retry after 3600 s, more than the 60 s einvoice waits (--max-retry-after)',
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe('--help', () => {
  it('lists exit 8 (outcome unknown) and 143 (SIGTERM) with the others', async () => {
    const help = await runInProcess(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('  8    outcome unknown: a create or refund may have reached the service');
    expect(help.stdout).toContain('  143  terminated (SIGTERM), handled as one Ctrl-C');
  });
});

describe('a refund answered with a success status', () => {
  const refundArgs = ['refund', '1000007', '--amount', '5', '--reason', 'x', '--order-ref', '3712345', '--yes'];
  const answering = (contentType: string, body: string) =>
    serve((_request, response) => {
      response.writeHead(200, { 'content-type': contentType });
      response.end(body);
    });

  it('is done when the answer is a JSON object', async () => {
    for (const [contentType, body] of [
      ['application/json', '{}'],
      ['application/json', '{"status":"REFUNDED"}'],
    ] as const) {
      const server = await answering(contentType, body);
      const result = await runInProcess(refundArgs, { env: { HOME: homeAt(server.url) } });
      expect(result.code, `${body}: ${result.stderr}`).toBe(0);
      expect(result.stderr).toContain('Refunded 5.00 of invoice 1000007');
    }
  });

  it('has an unknown outcome when the answer is a login page or not the documented object: exit 8', async () => {
    for (const [contentType, body] of [
      ['text/html', '<html><form>Login</form></html>'],
      ['application/json', '1234567890123456789012345678901234567890'],
      // The documented answer is a JSON object: an empty body does not say the refund was done.
      ['application/json', ''],
    ] as const) {
      const server = await answering(contentType, body);
      const result = await runInProcess(refundArgs, { env: { HOME: homeAt(server.url) } });
      expect(result.code, `${body}: ${result.stderr}`).toBe(8);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('the refund of invoice 1000007 may already exist');
      expect(result.stderr).toContain('The service sent an unexpected response: the answer to the refund');
    }
  });
});
