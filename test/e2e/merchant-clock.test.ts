import { describe, expect, it } from 'vitest';
import { runSpawned } from '../helpers/spawned.js';

// `today` on the clock of the process's own time zone, which Node takes from TZ as the process starts. The rest of
// the merchant's clock: test/commands/merchant-clock.test.ts.

/** Today's date in `timeZone`, by the platform. */
const todayIn = (timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

const flags = ['--customer-name', 'Mona Adel', '--customer-mobile', '+201001234567', '--amount', '10', '--note', 'x'];

describe("today is the merchant's today", () => {
  // Kiritimati is 25 hours ahead of Pago Pago: at any instant their dates differ by a day.
  it.each(['Pacific/Kiritimati', 'Pacific/Pago_Pago'])(
    'TZ=%s: --sending-date today --dry-run prints that zone’s date',
    async (timeZone) => {
      const before = todayIn(timeZone);
      const result = await runSpawned(
        [
          'create',
          'single',
          ...flags,
          '--sending-date',
          'today',
          '--release-date',
          'today',
          '--expiry-date',
          '+30d',
          '--dry-run',
        ],
        { env: { TZ: timeZone } },
      );
      expect(result.code, result.stderr).toBe(0);
      const sent = JSON.parse(result.stdout) as { sendingDate: string };
      expect([before, todayIn(timeZone)]).toContain(sent.sendingDate);
    },
  );
});
