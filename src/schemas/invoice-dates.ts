// What may be wrong with an invoice's dates without being against a rule of the spec: the service takes them, but
// the customer could not pay such an invoice, so einvoice holds it back. Zod-free, for the one-invoice flow and the
// plan of a bulk run alike.

/** The dates an invoice is sent with, as the request schema leaves them. */
export interface InvoiceDates {
  /** `YYYY-MM-DD`. */
  sendingDate: string;
  /** `YYYY-MM-DDThh:mm:ss.sssZ`, as is `expiryDate`. */
  releaseDate: string;
  expiryDate: string;
}

/** One problem of an invoice's dates: the field it is about, and what is wrong, in words that follow the field. */
export interface DateProblem {
  path: 'expiryDate';
  message: string;
  /** True when the expiry has already passed (rather than only being before another date). */
  expired: boolean;
}

/**
 * The problems of an invoice's dates at `now` (an instant as `toISOString()` writes it): its expiry has already
 * passed, or is not after its release or sending date. Such an invoice cannot be paid: it is held back. Empty when
 * there is nothing to say. The schema leaves every instant in the one form `YYYY-MM-DDThh:mm:ss.sssZ` with a
 * four-digit year, so comparing the texts compares the instants, with no date parsed: a bulk run asks this of
 * every record.
 */
export function dateProblems(invoice: InvoiceDates, now: string): DateProblem[] {
  const { expiryDate, releaseDate, sendingDate } = invoice;
  const sendingStart = `${sendingDate}T00:00:00.000Z`;
  if (expiryDate > now && expiryDate > releaseDate && expiryDate > sendingStart) return [];
  const problems: DateProblem[] = [];
  if (expiryDate <= now) {
    problems.push({
      path: 'expiryDate',
      message: `${expiryDate} has already passed (it is now ${now}): the customer could not pay it`,
      expired: true,
    });
  }
  const before = [
    expiryDate <= releaseDate ? `releaseDate ${releaseDate}` : undefined,
    expiryDate <= sendingStart ? `sendingDate ${sendingDate}` : undefined,
  ].filter((date) => date !== undefined);
  if (before.length > 0) {
    problems.push({ path: 'expiryDate', message: `${expiryDate} is not after ${before.join(' or ')}`, expired: false });
  }
  return problems;
}

const wireDay = /^\d{4}-\d{2}-\d{2}$/;
const wireInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The dates of a request the schema has not passed (it may be wrong elsewhere), when all three are in their wire
 * shapes: its dates can still be told to the merchant with its other problems.
 */
export function wireDates(raw: Record<string, unknown>): InvoiceDates | undefined {
  const { sendingDate, releaseDate, expiryDate } = raw;
  if (typeof sendingDate !== 'string' || !wireDay.test(sendingDate)) return undefined;
  if (typeof releaseDate !== 'string' || !wireInstant.test(releaseDate)) return undefined;
  if (typeof expiryDate !== 'string' || !wireInstant.test(expiryDate)) return undefined;
  return { sendingDate, releaseDate, expiryDate };
}

/** The problems of `dateProblems` as sentences: `expiryDate 2026-01-01T... has already passed ...`. */
export function dateWarnings(invoice: InvoiceDates, now: string): string[] {
  return dateProblems(invoice, now).map((problem) => `${problem.path} ${problem.message}.`);
}
