import { randomUUID } from 'node:crypto';
import {
  type BulkKind,
  type JournalPlace,
  type MerchantWord,
  type Plan,
  type RecordKindName,
  type RecordMark,
  type SendEntry,
  type SettledRecord,
} from '../../bulk/index.js';
import type { CommandContext } from '../../context.js';
import type { LedgerEntry } from '../../ledger/entries.js';
import { journalContentKey, journalHeader, journalRecordKey, type JournalHeader } from '../../ledger/journal-import.js';
import { Ledger } from '../../ledger/ledger.js';
import type { LedgerRecorder } from '../../ledger/recorder.js';
import type { Session } from '../../session.js';
import { notSentFromHere, withLedgerChecks } from './ledger-checks.js';
import { ledgerFileOf, serviceOf, startRecording } from './ledger-recording.js';

// A bulk run and the merchant's ledger: each record's outcome recorded as the run learns it (keyed as an import of
// its journal would key it, so importing the journal later changes nothing), the merchant's word on records sent
// before, and the ledger's checks of the records (ledger-checks.ts).

/** What a bulk run needs of the ledger. */
export interface BulkLedger {
  /**
   * The kind, its checks extended with the ledger's (a copy of an invoice sent from another journal, a refund of more
   * than its invoice holds or of an invoice refunded), held back under `strict`.
   */
  withLedgerChecks(kind: BulkKind, strict: boolean): BulkKind;
  /** What the plan holds that the ledger does not know of, in words (refunds of invoices sent elsewhere). */
  planNote(plan: Plan, kind: BulkKind): string | undefined;
  /** The plan, whose records name their lines. */
  planned(plan: Plan): void;
  /**
   * The merchant's word as the run journaled it (`marks`), and, for a refund, the word on invoices the journal holds
   * no sent record of (`unknown`): their refunds the ledger holds from elsewhere.
   */
  marked(marks: readonly RecordMark[], word: MerchantWord, unknown: readonly string[]): Promise<void>;
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
): Promise<BulkLedger | undefined> {
  const file = ledgerFileOf(session, options, context);
  if (!file) return undefined;
  const repair = journal
    ? `einvoice invoices import ${journal.shown} brings them in once it can be written.`
    : 'The run kept no journal to import later.';
  const recorder = options.dryRun ? undefined : startRecording(session, options, context, repair);
  // A ledger that cannot be read checks nothing: the run goes on, and the recorder says why once.
  const ledger = recorder ? await recorder.ledger() : await Ledger.open(file, { create: false }).catch(() => undefined);
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
  #waiting: Array<[SendEntry, SettledRecord]> = [];
  #reading: Promise<void> | undefined;
  #finished = false;

  constructor(parts: RunLedgerParts) {
    this.#parts = parts;
    if (parts.header) this.#batch = { id: parts.header.id, input: parts.header.run.input };
  }

  withLedgerChecks(kind: BulkKind, strict: boolean): BulkKind {
    const { ledger, session, context } = this.#parts;
    if (!ledger) return kind;
    const scope = ledger.currentScope(serviceOf(session, context));
    return withLedgerChecks(kind, { ledger, run: this.#batch?.id, scope, timeZone: session.profile.timeZone, strict });
  }

  planNote(plan: Plan, kind: BulkKind): string | undefined {
    const { ledger, session, context } = this.#parts;
    return ledger && notSentFromHere(plan, ledger, ledger.currentScope(serviceOf(session, context)), kind);
  }

  planned(plan: Plan): void {
    this.#plan = plan;
  }

  async marked(marks: readonly RecordMark[], word: MerchantWord, unknown: readonly string[]): Promise<void> {
    const { recorder, kind, session, context } = this.#parts;
    const batch = this.#batch;
    const type = kind === 'refund' ? 'refund' : 'invoice';
    const words = merchantWords[type];
    await recorder?.change((ledger) => {
      // The journal held the records, so it has its first line: the batch the ledger keys them by.
      if (batch) {
        ledger.mark(
          marks.map(({ key, done }) => ({
            type,
            key: journalRecordKey(batch.id, key),
            status: done ? words.done : words.notDone,
            decided: `${done ? words.doneText : words.notDoneText}, as the merchant said`,
          })),
          marks[0]?.at ?? new Date().toISOString(),
        );
      }
      if (type !== 'refund' || unknown.length === 0) return;
      // A refund of the invoice sent otherwise (another journal, one `einvoice refund`) is the one the word is of.
      const scope = ledger.currentScope(serviceOf(session, context));
      const at = new Date().toISOString();
      for (const number of unknown) {
        const done = word.done.includes(number);
        const status = done ? 'refunded' : 'not-refunded';
        ledger.markRefundsOf(scope, number, status, `${done ? 'refunded' : 'not refunded'}, as the merchant said`, at);
      }
    });
  }

  settled(entry: SendEntry, outcome: SettledRecord): void {
    if (!this.#parts.recorder) return;
    if (this.#batch) return this.#add(entry, outcome, this.#batch);
    this.#waiting.push([entry, outcome]);
    // The journal's first line is on disk before the first request: it names the batch on every machine.
    const journal = this.#parts.journal;
    this.#reading ??= (journal ? journalHeader(journal.path) : Promise.resolve(undefined))
      .catch(() => undefined)
      .then((header) => {
        // Without a journal to name the batch, its records are keyed by this run alone.
        const batch = header ? { id: header.id, input: header.run.input } : { id: `run-${randomUUID()}` };
        this.#batch = batch;
        for (const [waiting, settled] of this.#waiting.splice(0)) this.#add(waiting, settled, batch);
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

  #add(entry: SendEntry, outcome: SettledRecord, batch: Batch): void {
    const ledgerEntry = this.#entryOf(entry, outcome, batch);
    if (ledgerEntry) this.#parts.recorder?.add(ledgerEntry);
  }

  #entryOf(entry: SendEntry, outcome: SettledRecord, batch: Batch): LedgerEntry | undefined {
    const { session, kind, journal } = this.#parts;
    // A failure the service never answered left nothing there.
    if (outcome.status === 'failed' && outcome.httpStatus === undefined) return undefined;
    const result = this.#plan?.results.get(entry.index);
    const common = {
      key: journalRecordKey(batch.id, entry.key),
      sentAt: outcome.sentAt,
      ...(outcome.sandboxState !== undefined ? { sandboxState: outcome.sandboxState } : {}),
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
      ...(outcome.status === 'already-existed' ? { alreadyExisted: true } : {}),
      ...(body.businessReference === undefined ? { contentKey: journalContentKey(entry.key) } : {}),
    };
  }
}

/** The statuses the merchant's word gives, and how the ledger explains them. */
const merchantWords = {
  invoice: { done: 'created', notDone: 'not-created', doneText: 'created', notDoneText: 'not created' },
  refund: { done: 'refunded', notDone: 'not-refunded', doneText: 'refunded', notDoneText: 'not refunded' },
} as const;
