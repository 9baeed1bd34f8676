import { describe, expect, it } from 'vitest';

// src/api/got.ts loads got with Intl.ListFormat deferred: its type checker makes two formatters as it loads, and the
// first Intl object of a process loads ICU's locale data. Each test file runs in a fresh worker, where got is not yet
// loaded, so what loading it costs shows here.

describe('got, as einvoice loads it', () => {
  it('makes no list formatter as it loads, and words its messages as before once one is needed', async () => {
    const intl = Intl as { ListFormat: typeof Intl.ListFormat };
    const Real = intl.ListFormat;
    let made = 0;
    const Counting = function (...args: ConstructorParameters<typeof Intl.ListFormat>) {
      made += 1;
      return new Real(...args);
    } as unknown as typeof Intl.ListFormat;
    intl.ListFormat = Counting;
    try {
      const { default: got } = await import('../../src/api/got.js');
      expect(made).toBe(0);
      expect(Intl.ListFormat).toBe(Counting);

      // A wrong option is refused while got checks its options, before any connection is opened.
      const refusal = got('http://127.0.0.1:9/', { searchParams: { page: {} as never } });
      await expect(refusal).rejects.toThrow(
        "Option 'searchParams.page': Expected values which are `string`, `number`, `boolean`, `null`, or " +
          '`undefined`. Received values of type `Object`.',
      );
      expect(made).toBe(2);
    } finally {
      intl.ListFormat = Real;
    }
  });
});
