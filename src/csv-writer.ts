// The one way einvoice writes a CSV cell (a bulk run's report, the ledger's export, the templates): quoted when it
// holds a comma, a quote or a line end, and never a formula. A spreadsheet runs a cell that begins with =, +, -, @, a
// tab or a carriage return as a formula (OWASP's "CSV injection"); such text is written with a leading ' so that it
// shows as text, whatever a name or reference from outside holds. A mobile (+201012345678) is text too, and gets the
// same mark, which keeps its + where a spreadsheet would otherwise read a number; a number einvoice wrote (an
// amount, a row) is written as it is.

/** What begins a cell a spreadsheet would run as a formula. */
const formulaStart = /^[=+\-@\t\r]/;

/** Exact decimal digits einvoice wrote: an amount, a count. */
const decimal = /^-?\d+(\.\d+)?$/;

/**
 * One CSV cell. Text is kept from running as a formula; `number` is for a number einvoice itself wrote (digits, an
 * optional sign and decimals), which is written as it is (anything else given as one is text).
 */
export function csvCell(value: string | number | boolean | null | undefined, type: 'text' | 'number' = 'text'): string {
  if (value === undefined || value === null) return '';
  let text = String(value);
  const number = typeof value === 'number' || (type === 'number' && decimal.test(text));
  if (!number && formulaStart.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A cell that `csvCell` (or a person, as spreadsheets teach) marked as text, read back as the text it holds. */
export function withoutTextMark(text: string): string {
  return text.startsWith("'") && formulaStart.test(text.slice(1)) ? text.slice(1) : text;
}
