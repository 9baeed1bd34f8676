// Numbers written for a reader: amounts, exact decimals and counts with thousands separators. Used by the terminal
// output, the prompts, the bulk checks and the sandbox's notifications alike, so an amount reads the same everywhere.
// Grouping by hand rather than with Intl.NumberFormat: the first Intl formatter a process makes loads ICU's locale
// data, which costs a command more than it would gain.

/** An amount with two decimals and thousands separators: 18,450.00. */
export function formatAmount(amount: number): string {
  return grouped(amount.toFixed(2));
}

/** Exact decimal text (`1234.50`, any size) with thousands separators: 1,234.50. */
export function formatDecimal(decimal: string): string {
  return grouped(decimal);
}

/** A count with thousands separators: 12,345. */
export function formatCount(count: number): string {
  return grouped(count.toFixed(0));
}

/** A number as a reader sees it written (`1,250.50`, as `formatAmount()` writes it) without its separators; any
 * other text as it is. */
export function ungrouped(text: string): string {
  return /^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(text) ? text.replaceAll(',', '') : text;
}

/** Inserts a comma between each group of three digits of the whole part of a plain decimal text ("-1234.50"). */
function grouped(decimal: string): string {
  const point = decimal.indexOf('.');
  const whole = point === -1 ? decimal : decimal.slice(0, point);
  const fraction = point === -1 ? '' : decimal.slice(point);
  return `${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction}`;
}
