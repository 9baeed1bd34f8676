// Month arithmetic, zod-free: the date flags (src/input/dates.ts) load it on every start-up, help included.

/**
 * Adds whole months, keeping the day but clamping to the month's last day (Jan 31 + 1 month = Feb 28/29): what `+1m`
 * means in a date flag and in the sandbox's clock alike.
 */
export function addMonths(instant: Date, months: number): Date {
  const result = new Date(instant.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}
