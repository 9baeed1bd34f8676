import { randomUUID } from 'node:crypto';
import {
  contentHash,
  type BulkKind,
  type JournalPlace,
  type Plan,
  type RecordKindName,
  type SendEntry,
  type SettledRecord,
} from '../../bulk/index.js';
import type { CommandContext } from '../../context.js';
import type { FieldIssue } from '../../errors.js';
import type { LedgerEntry } from '../../ledger/entries.js';
import { journalContentKey, journalHeader, journalRecordKey, type JournalHeader } from '../../ledger/journal-import.js';
import { Ledger } from '../../ledger/ledger.js';
import type { LedgerRecorder } from '../../ledger/recorder.js';
import type { Session } from '../../session.js';
import { ledgerFileOf, serviceOf, startRecording } from './ledger-recording.js';

// A bulk run and the merchant's ledger: each record's outcome recorded as the run learns it (keyed as an import of
// its journal would key it, so importing the journal later changes nothing), the merchant's word on uncertain
// refunds, and a warning for a record without a businessReference that the ledger holds from another journal.

/** What a bulk run needs of the ledger. */
export interface BulkLedger {
  /** The kind, its checks extended with the ledger's (a copy of an invoice sent from another journal). */
  withLedgerChecks(kind: BulkKind, strict: boolean): BulkKind;
  /** The plan, whose records name their lines. */
  planned(plan: Plan): void;
  /** Records a record's outcome. */
  settled(entry: SendEntry, outcome: SettledRecord): void;
  /** Writes what is left and closes the ledger. Once only. */
  finish(): Promise<void>;
}

/** The ledger of a bulk run, or undefined when it is off; a dry run only reads it. */
export async function openBulkLedger(
  session: Session,
  options: { ledger?: boolean; dryRun?: boolean },
  context: CommandContext,
  kind: RecordKindName,
  journal: JournalPlace | undefined,
  settle?: { done: readonly string[]; notDone: readonly string[] },
): Promise<BulkLedger | undefined> {
  const file = ledgerFileOf(session, options, context);
  if (!file) return undefined;
  const repair = journal
    ? `einvoice invoices import ${journal.shown} brings them in once it can be written.`
    : 'The run kept no journal to import later.';
  const recorder = options.dryRun ? undefined : startRecording(session, options, context, repair);
  // A ledger that cannot be read checks nothing: the run goes on, and the recorder says why once.
  const ledger = recorder ? await recorder.ledger() : await Ledger.open(file, { create: false }).catch(() => undefined);
  // The merchant's word on refunds an earlier run left uncertain, before this run sends any of them again.
  if (settle) {
    await recorder?.change((open) => {
      for (const number of settle.done) open.settleRefunds(number, 'refunded', 'refunded, as the merchant said');
      for (const number of settle.notDone) {
        open.settleRefunds(number, 'not-refunded', 'not refunded, as the merchant said');
      }
    });
  }
  const header = journal ? await journalHeader(journal.path).catch(() => undefined) : undefined;
  return new RunLedger({ session, context, kind, journal, recorder, ledger, header });
}

interface RunLedgerParts {
  session: Session;
  context: CommandContext;
  kind: RecordKindName;
  journal: JournalPlace | undefined;
  recorder: LedgerRecorder | undefined;
  ledger: Ledger | undefined;
  /** The journal's first line, when it was there before this run. */
  header: JournalHeader | undefined;
}

/** The batch a run's records belong to: its journal's id, and the file it reads. */
interface Batch {
  id: string;
  input?: string;
}

class RunLedger implements BulkLedger {
  readonly #parts: RunLedgerParts;
  #plan: Plan | undefined;
  #batch: Batch | undefined;
  /** Outcomes heard before the journal's first line (written by this run) was read, and that reading. */
  #waiting: Array<[SendEntry, SettledRecord, string]> = [];
  #reading: Promise<void> | undefined;
  #finished = false;

  constructor(parts: RunLedgerParts) {
    this.#parts = parts;
    if (parts.header) this.#batch = { id: parts.header.id, input: parts.header.run.input };
  }

  withLedgerChecks(kind: BulkKind, strict: boolean): BulkKind {
    const { ledger } = this.#parts;
    if (!ledger || this.#parts.kind === 'refund' || !ledger.holdsContentKeys()) return kind;
    const run = this.#batch?.id;
    const name = this.#parts.kind;
    return {
      ...kind,
      checking: (clock) => {
        const checks = kind.checking(clock);
        return {
          ...checks,
          check: (record, recordNumber, content, sentBefore) => {
            const result = checks.check(record, recordNumber, content, sentBefore);
            const { body } = result;
            if (!body || body.businessReference !== undefined) return result;
            // The record as the file gives it, as its journal knows it: a rerun elsewhere resolves its dates anew.
            const same = ledger.sameContent(contentHash(name, content()), run);
            if (!same) return result;
            const issue = copyIssue(same.invoiceNumber, same.sentAt, same.journal);
            if (result.held) {
              return { ...result, held: { ...result.held, issues: [...result.held.issues, strictly(issue)] } };
            }
            if (strict) return { ...result, held: { reason: 'warnings', issues: [strictly(issue)] } };
            return { ...result, warnings: [...result.warnings, issue] };
          },
        };
      },
    };
  }

  planned(plan: Plan): void {
    this.#plan = plan;
  }

  settled(entry: SendEntry, outcome: SettledRecord): void {
    if (!this.#parts.recorder) return;
    const sentAt = new Date().toISOString();
    if (this.#batch) return this.#add(entry, outcome, sentAt, this.#batch);
    this.#waiting.push([entry, outcome, sentAt]);
    // The journal's first line is on disk before the first request: it names the batch on every machine.
    const journal = this.#parts.journal;
    this.#reading ??= (journal ? journalHeader(journal.path) : Promise.resolve(undefined))
      .catch(() => undefined)
      .then((header) => {
        // Without a journal to name the batch, its records are keyed by this run alone.
        const batch = header ? { id: header.id, input: header.run.input } : { id: `run-${randomUUID()}` };
        this.#batch = batch;
        for (const [waiting, settled, at] of this.#waiting.splice(0)) this.#add(waiting, settled, at, batch);
      });
  }

  async finish(): Promise<void> {
    if (this.#finished) return;
    this.#finished = true;
    const { recorder, ledger } = this.#parts;
    if (!recorder) return ledger?.close();
    await this.#reading;
    await recorder.finish();
  }

  #add(entry: SendEntry, outcome: SettledRecord, sentAt: string, batch: Batch): void {
    const ledgerEntry = this.#entryOf(entry, outcome, sentAt, batch);
    if (ledgerEntry) this.#parts.recorder?.add(ledgerEntry);
  }

  #entryOf(entry: SendEntry, outcome: SettledRecord, sentAt: string, batch: Batch): LedgerEntry | undefined {
    const { session, kind, journal } = this.#parts;
    // A failure the service never answered left nothing there.
    if (outcome.status === 'failed' && outcome.httpStatus === undefined) return undefined;
    const result = this.#plan?.results.get(entry.index);
    const common = {
      key: journalRecordKey(batch.id, entry.key),
      sentAt,
      ...(session.profile.currency ? { currency: session.profile.currency } : {}),
      source: {
        via: 'bulk' as const,
        file: batch.input,
        line: result?.line ?? result?.record,
        journal: journal?.path,
        run: batch.id,
      },
      service: serviceOf(session, this.#parts.context),
      ...(outcome.error !== undefined && outcome.status !== 'created' ? { error: outcome.error } : {}),
    };
    const body = JSON.parse(entry.bodyJson) as Record<string, unknown>;
    const made = outcome.status === 'created' || outcome.status === 'already-existed';
    const status = made ? 'created' : outcome.status === 'uncertain' ? 'uncertain' : 'refused';
    if (kind === 'refund') {
      const { invoiceNumber, ...refund } = body;
      return {
        type: 'refund',
        ...common,
        invoiceNumber: String(invoiceNumber),
        status: status === 'created' ? 'refunded' : status,
        bodyJson: JSON.stringify(refund),
        body: refund,
      };
    }
    return {
      type: 'invoice',
      ...common,
      kind,
      status,
      ...(outcome.invoiceNumber !== undefined ? { invoiceNumber: outcome.invoiceNumber } : {}),
      bodyJson: entry.bodyJson,
      body,
      ...(outcome.status === 'already-existed'
        ? { decided: 'the service already held it when it was sent again' }
        : {}),
      ...(body.businessReference === undefined ? { contentKey: journalContentKey(entry.key) } : {}),
    };
  }
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
