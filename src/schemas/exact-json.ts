import { maxSignificantDigits, readsBackExactly } from './money.js';

// JSON.parse turns every number into a double, and a double cannot carry every decimal: 90071992547409.93 reads as
// 90071992547409.94, 0.30000000000000001 as 0.3. Such a number is kept as what was written (an InexactNumber), so
// the schema refuses it by name instead of sending a value the merchant never typed.

/** A number as written in JSON or typed on the command line that no double carries exactly. */
export class InexactNumber {
  constructor(readonly text: string) {}

  /** Written back as the text it was, so a saved draft keeps what the merchant typed. */
  toJSON(): string {
    return this.text;
  }
}

/** The message for a number that cannot be sent exactly; `ceiling` names the field's largest value, if any. */
export function inexactMessage(value: InexactNumber, ceiling?: string): string {
  const read = String(Number(value.text));
  return (
    `${value.text.trim()} cannot be sent exactly (a JSON number would carry ${read}): ` +
    `give at most ${maxSignificantDigits} significant digits${ceiling ? `, at most ${ceiling}` : ''}`
  );
}

/** Typed text that looks like a number: the number, or an InexactNumber when no double carries it exactly. */
export function readNumberText(text: string): number | InexactNumber | undefined {
  const trimmed = text.trim();
  if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(trimmed)) return undefined;
  return readsBackExactly(trimmed) ? Number(trimmed) : new InexactNumber(trimmed);
}

/**
 * A number of more than 15 significant digits, or with an exponent, might not read back: only those are checked. A
 * JSON number begins the text or follows `:`, `[` or `,`; looking only there skips the digits of dates and phone numbers inside strings,
 * which made this test cost as much as JSON.parse itself. A string that holds such text (`"note":"a: 1e5"`) only
 * sends its record down the slower, exact path.
 */
const suspectNumber = /(?:^|[:[,])\s*-?(?:\d[\d.]{15}|\d[\d.]*[eE])/;
/** JSON strings (skipped) and JSON numbers, in the order they appear. */
const stringOrNumber = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
/** Marks an inexact number's text while JSON.parse reads it as a string. */
const marker = '\u0000inexact-number:';

/**
 * JSON.parse, except that a number no double carries exactly becomes an InexactNumber. Text without a long number
 * (nearly every file) goes straight to JSON.parse. Throws JSON.parse's own error for text that is not JSON.
 */
export function parseJsonExactly(text: string): unknown {
  if (!suspectNumber.test(text)) return JSON.parse(text);
  let inexact = false;
  const marked = text.replace(stringOrNumber, (token) => {
    if (token.startsWith('"') || readsBackExactly(token)) return token;
    inexact = true;
    return JSON.stringify(`${marker}${token}`);
  });
  if (!inexact) return JSON.parse(text);
  try {
    return JSON.parse(marked, (_key, value: unknown) =>
      typeof value === 'string' && value.startsWith(marker) ? new InexactNumber(value.slice(marker.length)) : value,
    );
  } catch {
    // Not JSON: the error, and its position, of the text as written.
    return JSON.parse(text);
  }
}
