// The guarantees of docs/guarantees.md, as the torture run's checker names them, and a breach of one as it reports it.

/** The guarantees, by the name the checker reports them under. */
export const guarantees = {
  'one-invoice': 'at most one invoice per record at the service',
  'no-refund-resend': 'no refund request after one that may have been carried out, except after a 429',
  'true-outcome': 'every record in exactly one outcome of the report, and that outcome true',
  'no-resend-after-done': 'a resumed run sends nothing a finished one sent',
  'answer-kept': 'an answer is never turned back into "uncertain"',
  'no-secret': 'no secret in any output',
  'marks-kept': "the merchant's marks are kept",
  'one-entry': 'the ledger holds one entry per invoice, as the service holds it',
} as const;
export type Guarantee = keyof typeof guarantees;

/** A guarantee that did not hold, with what shows it. */
export interface Violation {
  guarantee: Guarantee;
  /** The record it is about, in the merchant's words. */
  subject: string;
  message: string;
  /** The requests in order, the runs' words: what shows it. */
  evidence: string[];
}
