// A cell of a CSV file a merchant opens in a spreadsheet (the ledger's export, a reconciliation's report).

/**
 * One CSV cell: quoted when it holds a comma, a quote or a line end. A `guarded` text a spreadsheet would run as a
 * formula (`=`, `@`) is written with a leading `'`, so it stays text; + and - begin mobiles and amounts, and stay.
 */
export function csvCell(value: string | null | undefined, guarded: boolean): string {
  if (value === null || value === undefined) return '';
  const text = guarded && /^[=@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
