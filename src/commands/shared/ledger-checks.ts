import { contentHash, type BulkKind, type Plan } from '../../bulk/index.js';
import type { FieldIssue } from '../../errors.js';
import type { Ledger } from '../../ledger/ledger.js';
import { toMinorUnits } from '../../schemas/money.js';
import { formatCount } from '../../schemas/number-text.js';
import { refundStandingIssues } from '../../schemas/refund-standing.js';

// What the merchant's ledger adds to the checks of a run's records, before anything is sent (a dry run too): a
// record without a businessReference the ledger holds from another journal, and a refund of more than its invoice
// holds, or of an invoice already refunded. Each is a warning, held back under --strict.

/** What the ledger's checks of a run work with. */
export interface LedgerCheckContext {
  ledger: Ledger;
  /** The journal's id, when the run resumes one: its own records are not another's. */
  run: string | undefined;
  /** The numbering the service's invoices are in now. */
  scope: string;
  timeZone: string;
  strict: boolean;
}

/** The kind, its checks extended with the ledger's. */
export function withLedgerChecks(kind: BulkKind, checks: LedgerCheckContext): BulkKind {
  if (kind.sending.name === 'refund') return withRefundChecks(kind, checks);
  if (!checks.ledger.holdsContentKeys()) return kind;
  return extended(kind, checks.strict, (result, content) => {
    const { body } = result;
    if (!body || body.businessReference !== undefined) return [];
    // The record as the file gives it, as its journal knows it: a rerun elsewhere resolves its dates anew.
    const same = checks.ledger.sameContent(contentHash(kind.sending.name, content()), checks.run);
    return same ? [copyIssue(same.invoiceNumber, same.sentAt, same.journal)] : [];
  });
}

/** A refund against what the ledger holds of its invoice, but the refunds of this run's own journal. */
function withRefundChecks(kind: BulkKind, checks: LedgerCheckContext): BulkKind {
  return extended(kind, checks.strict, (result, _content, amountOf) => {
    const { body } = result;
    if (!body || !amountOf) return [];
    const invoiceNumber = String(body.invoiceNumber);
    const standing = checks.ledger.standing(checks.scope, invoiceNumber);
    const refunds = standing.refunds.filter((refund) => checks.run === undefined || refund.run !== checks.run);
    return refundStandingIssues(
      { invoiceNumber, amountMinor: toMinorUnits(amountOf(body)) },
      { ...standing, refunds },
      checks.timeZone,
    );
  });
}

type Checking = ReturnType<BulkKind['checking']>;
type Checked = ReturnType<Checking['check']>;

/** The kind whose every check adds what `issuesOf` finds: warnings, or held back under `strict`. */
function extended(
  kind: BulkKind,
  strict: boolean,
  issuesOf: (result: Checked, content: () => string, amountOf: Checking['amountOf']) => FieldIssue[],
): BulkKind {
  return {
    ...kind,
    checking: (clock) => {
      const checks = kind.checking(clock);
      return {
        ...checks,
        check: (record, recordNumber, content, sentBefore) => {
          const result = checks.check(record, recordNumber, content, sentBefore);
          const issues = issuesOf(result, content, checks.amountOf?.bind(checks));
          if (issues.length === 0) return result;
          if (result.held) {
            return { ...result, held: { ...result.held, issues: [...result.held.issues, ...issues.map(strictly)] } };
          }
          if (strict) return { ...result, held: { reason: 'warnings', issues: issues.map(strictly) } };
          return { ...result, warnings: [...result.warnings, ...issues] };
        },
      };
    },
  };
}

/** What the ledger warns of a refund of one invoice, before it is sent. */
export function refundWarnings(
  ledger: Ledger,
  scope: string,
  refund: { invoiceNumber: string; amountMinor: bigint },
  timeZone: string,
): FieldIssue[] {
  const standing = ledger.standing(scope, refund.invoiceNumber);
  return refundStandingIssues(refund, standing, timeZone);
}

/** The plan's refunds of invoices this machine did not send, in words; nothing for any other kind of run. */
export function notSentFromHere(plan: Plan, ledger: Ledger, scope: string, kind: BulkKind): string | undefined {
  if (kind.sending.name !== 'refund') return undefined;
  let count = 0;
  for (const result of plan.results.withStatus('pending')) {
    if (result.invoiceNumber !== undefined && !ledger.standing(scope, result.invoiceNumber).invoice) count += 1;
  }
  if (count === 0) return undefined;
  return (
    `${formatCount(count)} ${count === 1 ? 'refund is of an invoice' : 'refunds are of invoices'} this machine did ` +
    'not send (the ledger does not hold them: made in the merchant dashboard or on another machine); they are sent as the others.'
  );
}

/** The warning of a record the ledger holds, field for field, from another batch. */
function copyIssue(invoiceNumber: string | null, sentAt: string, journal: string | null): FieldIssue {
  const what = invoiceNumber ? `invoice ${invoiceNumber}` : 'an invoice';
  const from = journal ? `from the journal ${journal}` : 'from this machine';
  return {
    path: 'businessReference',
    message: `is missing, and the ledger holds ${what} with the same fields, sent ${sentAt.slice(0, 10)} ${from}: this may create it again`,
    cause:
      'is missing, and the ledger holds an invoice with the same fields from another run: this may create it again',
  };
}

function strictly(issue: FieldIssue): FieldIssue {
  return {
    ...issue,
    message: `${issue.message} (--strict)`,
    ...(issue.cause ? { cause: `${issue.cause} (--strict)` } : {}),
  };
}
