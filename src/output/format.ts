const amountFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** An amount with two decimals and thousands separators: 18,450.00. */
export function formatAmount(amount: number): string {
  return amountFormat.format(amount);
}

/** A count with thousands separators: 12,345. */
export function formatCount(count: number): string {
  return countFormat.format(count);
}

/** Machine-readable JSON for stdout: two-space indented, keys in the order the data has them. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
