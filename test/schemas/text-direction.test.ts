import { describe, expect, it } from 'vitest';
import { directionRuns, withIsolatedRuns } from '../../src/schemas/text-direction.js';

// A customer's Arabic message as the terminal and the dashboard show it: each date, amount and number in a
// left-to-right run of its own, so that 2026-05-12 never reads 12-05-2026 between Arabic words.

const sms =
  'مرحباً منى، فاتورتك رقم 1000001 بمبلغ 1,250.50 (إيجار) جاهزة. ادفع قبل 2026-05-12: ' +
  'https://pay.sandbox.invalid/invoices/1000001';

describe('directionRuns', () => {
  it('cuts Arabic text into runs, each date, amount and number one left-to-right run; a link stays as it is', () => {
    expect(directionRuns(sms)).toEqual([
      { text: 'مرحباً منى، فاتورتك رقم ', ltr: false },
      { text: '1000001', ltr: true },
      { text: ' بمبلغ ', ltr: false },
      { text: '1,250.50', ltr: true },
      { text: ' (إيجار) جاهزة. ادفع قبل ', ltr: false },
      { text: '2026-05-12', ltr: true },
      // Its Latin letters keep a link whole; the invoice number at its end is part of it.
      { text: ': https://pay.sandbox.invalid/invoices/1000001', ltr: false },
    ]);
  });

  it('keeps a mobile with its +, and a time', () => {
    expect(directionRuns('اتصل على +201001234567 الساعة 21:30.').filter((run) => run.ltr)).toEqual([
      { text: '+201001234567', ltr: true },
      { text: '21:30', ltr: true },
    ]);
  });

  it('leaves text without a right-to-left letter whole: an English message reads as it is', () => {
    const english = 'Hello Mona, invoice 1000001 for 150.00 is ready. Pay by 2026-05-12.';
    expect(directionRuns(english)).toEqual([{ text: english, ltr: false }]);
    expect(withIsolatedRuns(english)).toBe(english);
  });
});

describe('withIsolatedRuns', () => {
  it('puts each left-to-right run between LRI and PDI, and changes nothing else', () => {
    const isolated = withIsolatedRuns(sms);
    expect(isolated).toContain('ادفع قبل \u20662026-05-12\u2069: https://pay.sandbox.invalid/invoices/1000001');
    expect(isolated).toContain('بمبلغ \u20661,250.50\u2069 ');
    expect(isolated.replace(/[\u2066\u2069]/g, '')).toBe(sms);
  });
});
