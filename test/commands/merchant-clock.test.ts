import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { homeFor, writeProfile } from '../helpers/profile.js';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';

// Dates on the merchant's clock: `today` is the merchant's today, a bare date is a day of their time zone, +30d
// counts from the sending date, and an invoice the customer could not pay is held back. `today` in the process's
// own TZ: test/e2e/merchant-clock.test.ts.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.api.reset(false));

const flags = ['--customer-name', 'Mona Adel', '--customer-mobile', '+201001234567', '--amount', '10', '--note', 'x'];

/** A JSON body of one invoice, its dates given. */
const body = (dates: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  customer: { name: 'Mona Adel', mobile: '+201001234567' },
  amount: 10,
  note: 'Order',
  communicationMethod: 'SMS',
  paymentType: 'PUSH_TO_CUSTOMER',
  ...dates,
  ...extra,
});

describe("today is the merchant's today", () => {
  it("reads bare dates as days of the profile's timeZone, and counts +30d from the sending date", async () => {
    const home = homeFor(sandbox, { timeZone: 'Africa/Cairo' });
    // TZ says otherwise: the profile's zone wins.
    const result = await runInProcess(
      [
        'create',
        'single',
        ...flags,
        '--sending-date',
        '2030-12-01',
        '--release-date',
        '2030-12-01',
        '--expiry-date',
        '+30d',
        '--dry-run',
      ],
      { home, env: { TZ: 'Pacific/Kiritimati' } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      sendingDate: '2030-12-01',
      // Cairo is UTC+2 in winter: its midnight is 22:00 UTC the day before.
      releaseDate: '2030-11-30T22:00:00.000Z',
      // 30 days after the sending date, to the end of that day in Cairo.
      expiryDate: '2030-12-31T21:59:59.999Z',
    });
  });

  it('without a profile zone, takes TZ: a bare expiry ends at midnight there', async () => {
    const home = homeFor(sandbox);
    const result = await runInProcess(
      [
        'create',
        'single',
        ...flags,
        '--sending-date',
        '2030-06-01',
        '--release-date',
        '2030-06-01',
        '--expiry-date',
        '2030-06-30',
        '--dry-run',
      ],
      { home, env: { TZ: 'Asia/Tokyo' } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      releaseDate: '2030-05-31T15:00:00.000Z',
      expiryDate: '2030-06-30T14:59:59.999Z',
    });
  });

  it('config show says which zone is in force and where it came from', async () => {
    const fromFile = await runInProcess(['config', 'show'], {
      home: homeFor(sandbox, { timeZone: 'Africa/Cairo', currency: 'EGP' }),
    });
    expect(fromFile.stdout).toMatch(/Time zone +Africa\/Cairo \(from the profile file\)/);
    expect(fromFile.stdout).toMatch(/Currency +EGP \(shown beside amounts, never sent\)/);
    const fromTz = await runInProcess(['config', 'show', '--json'], {
      home: homeFor(sandbox),
      env: { TZ: 'Asia/Tokyo' },
    });
    expect(JSON.parse(fromTz.stdout)).toMatchObject({ timeZone: 'Asia/Tokyo', currency: null });
  });

  it('refuses a profile timeZone that is not one, naming the key', async () => {
    const home = homeFor(sandbox, { timeZone: 'Cairo' });
    const result = await runInProcess(['create', 'single', ...flags, '--dry-run'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('timeZone: must be an IANA time zone, e.g. Africa/Cairo or UTC');
  });
});

describe('an invoice the customer could not pay is held back', () => {
  const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString();
  const later = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

  it('refuses one invoice whose expiry has passed, naming the dates, with exit 2 and nothing sent', async () => {
    const home = homeFor(sandbox);
    writeFileSync(
      join(home, 'invoice.json'),
      JSON.stringify(body({ sendingDate: yesterday, releaseDate: twoDaysAgo, expiryDate: twoDaysAgo })),
    );
    const result = await runInProcess(['create', 'single', '--file', 'invoice.json', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`expiryDate: ${twoDaysAgo} has already passed`);
    expect(result.stderr).toContain(`is not after releaseDate ${twoDaysAgo} or sendingDate ${yesterday}`);
    expect((await received(sandbox)).count).toBe(0);
  });

  it('holds back the expired record of a bulk file, and sends it with --allow-expired, counted in the summary', async () => {
    const home = homeFor(sandbox);
    const records = [
      body({ sendingDate: yesterday, releaseDate: twoDaysAgo, expiryDate: later }, { businessReference: 'R-1' }),
      body({ sendingDate: yesterday, releaseDate: twoDaysAgo, expiryDate: twoDaysAgo }, { businessReference: 'R-2' }),
    ];
    writeFileSync(join(home, 'invoices.ndjson'), records.map((record) => JSON.stringify(record)).join('\n'));
    const held = await runInProcess(['create', 'single', '--file', 'invoices.ndjson', '--yes'], { home });

    expect(held.code).toBe(2);
    expect(held.stderr).toContain(`record 2 (line 2): expiryDate: ${twoDaysAgo} has already passed`);
    expect(held.stderr).toContain(
      '1 record is held back for its dates alone: fix it first (an expiry ahead, after the sending and release dates); only as an exception, --allow-expired sends it as it is.',
    );
    expect((await received(sandbox)).count).toBe(0);

    const sent = await runInProcess(['create', 'single', '--file', 'invoices.ndjson', '--yes', '--allow-expired'], {
      home: home,
    });
    expect(sent.code, sent.stderr).toBe(0);
    // One record, two of its dates: counted as such.
    expect(sent.stderr).toContain('1 record has 2 warnings to look at:');
    expect(sent.stderr).toMatch(/record 2 \(line 2\): expiryDate: .* has already passed .*; sent \(--allow-expired\)/);
    expect(sent.stderr).toMatch(/sent already expired +1/);
    const references = (await sandbox.api.invoices()).map(
      (invoice) => (invoice.request as { businessReference: string }).businessReference,
    );
    expect(references.sort()).toEqual(['R-1', 'R-2']);
  });
});

describe("a sandbox's clock", () => {
  it('counts relative dates, and judges expiry, from the sandbox clock once it was moved', async () => {
    const home = tempHome();
    // The sandbox environment served on this machine, as `einvoice sandbox serve` gives it.
    writeProfile(home, {
      defaultEnv: 'sandbox',
      environments: { sandbox: { baseUrl: sandbox.url, token: sandbox.token } },
      timeZone: 'UTC',
    });
    const { now } = await sandbox.api.advanceClock('60d');
    const sandboxToday = now.slice(0, 10);

    const relative = await runInProcess(
      [
        'create',
        'single',
        ...flags,
        ...['--sending-date', 'today', '--release-date', 'today', '--expiry-date', '+30d', '--dry-run'],
      ],
      { home },
    );
    expect(relative.code, relative.stderr).toBe(0);
    const sent = JSON.parse(relative.stdout) as { sendingDate: string; expiryDate: string };
    expect(sent.sendingDate).toBe(sandboxToday);
    const thirtyDaysLater = new Date(Date.parse(sandboxToday) + 30 * 86_400_000).toISOString().slice(0, 10);
    expect(sent.expiryDate).toBe(`${thirtyDaysLater}T23:59:59.999Z`);

    // Due in 30 days by this machine's clock, it has expired by the sandbox's.
    const dueByMachine = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const expired = await runInProcess(
      [
        'create',
        'single',
        ...flags,
        ...['--sending-date', dueByMachine, '--release-date', dueByMachine, '--expiry-date', dueByMachine, '--yes'],
      ],
      { home },
    );
    expect(expired.code).toBe(2);
    expect(expired.stderr).toContain(`has already passed (it is now ${now.slice(0, 10)}`);
    expect((await received(sandbox)).count).toBe(0);
  });
});
