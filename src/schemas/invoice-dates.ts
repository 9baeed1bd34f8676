// What may be wrong with an invoice's dates without being against a rule: the service takes them, and the merchant
// is warned. Zod-free, for the one-invoice flow and the plan of a bulk run alike.

/** The dates an invoice is sent with, as the request schema leaves them. */
export interface InvoiceDates {
  /** `YYYY-MM-DD`. */
  sendingDate: string;
  /** `YYYY-MM-DDThh:mm:ss.sssZ`, as is `expiryDate`. */
  releaseDate: string;
  expiryDate: string;
}

/**
 * The warnings about an invoice's dates at `now` (an instant as `toISOString()` writes it): its expiry has already
 * passed, or is not after its release or sending date. Empty when there is nothing to say. The schema leaves every
 * instant in the one form `YYYY-MM-DDThh:mm:ss.sssZ` with a four-digit year, so comparing the texts compares the
 * instants, with no date parsed: a bulk run asks this of every record.
 */
export function dateWarnings(invoice: InvoiceDates, now: string): string[] {
  const { expiryDate, releaseDate, sendingDate } = invoice;
  const sendingStart = `${sendingDate}T00:00:00.000Z`;
  if (expiryDate > now && expiryDate > releaseDate && expiryDate > sendingStart) return [];
  const warnings: string[] = [];
  if (expiryDate <= now) {
    warnings.push(`expiryDate ${expiryDate} has already passed: the invoice expires as soon as it is created.`);
  }
  const before = [
    expiryDate <= releaseDate ? `releaseDate ${releaseDate}` : undefined,
    expiryDate <= sendingStart ? `sendingDate ${sendingDate}` : undefined,
  ].filter((date) => date !== undefined);
  if (before.length > 0) warnings.push(`expiryDate ${expiryDate} is not after ${before.join(' or ')}.`);
  return warnings;
}
