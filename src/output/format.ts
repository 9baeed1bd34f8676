import { formatCount } from '../schemas/number-text.js';

export { formatAmount, formatCount, formatDecimal } from '../schemas/number-text.js';

/** A count and its noun, singular for one: "1 single invoice", "1,500 single invoices". */
export function countOf(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/** Machine-readable JSON for stdout: two-space indented, keys in the order the data has them. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
