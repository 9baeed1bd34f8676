export { formatAmount, formatCount, formatDecimal } from '../schemas/number-text.js';

/** Machine-readable JSON for stdout: two-space indented, keys in the order the data has them. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
