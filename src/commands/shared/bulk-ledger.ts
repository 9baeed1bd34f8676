import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  type JournalPlace,
  type LedgerLookup,
  type MerchantWord,
  type Plan,
  type RecordKindName,
  type RecordMark,
  type SendEntry,
  type SettledRecord,
} from '../../bulk/index.js';
import type { CommandContext } from '../../context.js';
import type { LedgerEntry } from '../../ledger/entries.js';
import { journalHeader, type JournalHeader } from '../../ledger/journal-import.js';
import { journalRecordKey, ledgerEntryOf } from '../../ledger/sent-records.js';
import { Ledger } from '../../ledger/ledger.js';
import type { LedgerRecorder } from '../../ledger/recorder.js';
import { countOf } from '../../output/format.js';
import type { Session } from '../../session.js';
import { ledgerFileOf, serviceOf, startRecording } from './ledger-recording.js';

// A bulk run and the merchant's ledger: each record's outcome recorded as the run learns it (keyed as an import of
// its journal would key it, so importing the journal later changes nothing), the merchant's word on records sent
// before, and what the ledger holds from other journals, as answers to the kind's questions.

/** What a bulk run needs of the ledger. */
export interface BulkLedger {
  /**
   * What the ledger answers the kind as it checks each record: an invoice another journal sent, what it holds of the
   * invoice a refund is of.
   */
  lookup(): LedgerLookup | undefined;
  /** The plan, whose records name their lines, of the kind whose records are recorded. */
  planned(plan: Plan, kind: RecordKindName): void;
  /** What the plan holds that the ledger does not know of, in words (refunds of invoices sent elsewhere). */
  planNote(plan: Plan, record: string): string | undefined;
  /**
   * The merchant's word as the run journaled it (`marks`), and, for refunds, the word on invoices the journal holds
   * no sent record of (`unknown`): their refunds the ledger holds from elsewhere.
   */
  marked(
    kind: RecordKindName,
    marks: readonly RecordMark[],
    word: MerchantWord,
    unknown: readonly string[],
  ): Promise<void>;
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
  if (recorder && ledger && journal && header) await catchUp(ledger, journal, header, session);
  return new RunLedger({ session, context, journal, recorder, ledger, header });
}

/**
 * A run killed (`kill -9`, a lost machine) before its last batch reached the ledger left records only its journal
 * holds, which a rerun finds done and sends no more: the rerun brings them in first, as importing the journal would
 * (which adds nothing the ledger holds, and turns no answer back). A journal that cannot be read whole is left to the
 * run, which says why; a ledger that cannot be written, to the recorder.
 */
async function catchUp(ledger: Ledger, journal: JournalPlace, header: JournalHeader, session: Session): Promise<void> {
  try {
    // A run that ended with every record in the ledger said so, with the journal's size then.
    if (ledger.journalRecordedAt(header.id) === (await stat(journal.path)).size) return;
    if ((await ledger.checkJournal(journal.path, 0)).count > 0) return;
    const { currency } = session.profile;
    await ledger.importJournal(journal.path, 0, {
      journal: journal.path,
      header,
      via: 'bulk',
      ...(currency ? { currency } : {}),
    });
  } catch {
    // Told by the recorder at its first write, or by the run as it reads the journal.
  }
}

interface RunLedgerParts {
  session: Session;
  context: CommandContext;
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

/** The statuses the merchant's word gives, and how the ledger explains them. */
const merchantWords = {
  invoice: { done: 'created', notDone: 'not-created', doneText: 'created', notDoneText: 'not created' },
  refund: { done: 'refunded', notDone: 'not-refunded', doneText: 'refunded', notDoneText: 'not refunded' },
} as const;

class RunLedger implements BulkLedger {
  readonly #parts: RunLedgerParts;
  /** The service every record goes to, as the ledger names it. */
  readonly #service: string;
  #planned: { plan: Plan; kind: RecordKindName } | undefined;
  #batch: Batch | undefined;
  /** Outcomes heard before the journal's first line (written by this run) was read, and that reading. */
  #waiting: Array<[SendEntry, SettledRecord]> = [];
  #reading: Promise<void> | undefined;
  #finished = false;

  constructor(parts: RunLedgerParts) {
    this.#parts = parts;
    this.#service = serviceOf(parts.session, parts.context);
    if (parts.header) this.#batch = { id: parts.header.id, input: parts.header.run.input };
  }

  lookup(): LedgerLookup | undefined {
    const { ledger } = this.#parts;
    if (!ledger) return undefined;
    // This run's own journal tells its records apart: the ledger is asked of other journals' only.
    const run = this.#batch?.id;
    // Only an invoice sent without a businessReference has a content key: a ledger without one is not asked again.
    let holdsContentKeys: boolean | undefined;
    const scope = this.#scope(ledger);
    return {
      sameContent: (contentKey) => {
        holdsContentKeys ??= ledger.holdsContentKeys();
        return holdsContentKeys ? ledger.sameContent(contentKey, run) : undefined;
      },
      refundStanding: (invoiceNumber) => {
        const standing = ledger.standing(scope, invoiceNumber);
        return { ...standing, refunds: standing.refunds.filter((refund) => run === undefined || refund.run !== run) };
      },
    };
  }

  planned(plan: Plan, kind: RecordKindName): void {
    this.#planned = { plan, kind };
  }

  planNote(plan: Plan, record: string): string | undefined {
    const { ledger } = this.#parts;
    if (!ledger) return undefined;
    const scope = this.#scope(ledger);
    // Only a kind whose records name the invoice they are of (a refund) has an invoice number before sending.
    let count = 0;
    for (const result of plan.results.withStatus('pending')) {
      if (result.invoiceNumber !== undefined && !ledger.standing(scope, result.invoiceNumber).invoice) count += 1;
    }
    if (count === 0) return undefined;
    return (
      `${countOf(count, record)} ${count === 1 ? 'is' : 'are'} of ${count === 1 ? 'an invoice' : 'invoices'} this ` +
      'machine did not send (the ledger does not hold them: made in the merchant dashboard or on another machine); ' +
      'they are sent as the others.'
    );
  }

  async marked(
    kind: RecordKindName,
    marks: readonly RecordMark[],
    word: MerchantWord,
    unknown: readonly string[],
  ): Promise<void> {
    const { recorder } = this.#parts;
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
      const scope = this.#scope(ledger);
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
    const { journal } = this.#parts;
    const id = this.#batch?.id;
    // The next run of this journal need not bring its records in again (catchUp), unless it grew after this.
    await recorder.finish(
      journal && id ? (ledger) => ledger.journalRecorded(id, statSync(journal.path).size) : undefined,
    );
  }

  /** The numbering the service's invoices are in now. */
  #scope(ledger: Ledger): string {
    return ledger.currentScope(this.#service);
  }

  #add(entry: SendEntry, outcome: SettledRecord, batch: Batch): void {
    const ledgerEntry = this.#entryOf(entry, outcome, batch);
    if (ledgerEntry) this.#parts.recorder?.add(ledgerEntry);
  }

  #entryOf(entry: SendEntry, outcome: SettledRecord, batch: Batch): LedgerEntry | undefined {
    const { session, journal } = this.#parts;
    // A failure the service never answered left nothing there; a run records only what it planned.
    if ((outcome.status === 'failed' && outcome.httpStatus === undefined) || !this.#planned) return undefined;
    const result = this.#planned.plan.results.get(entry.index);
    const made = outcome.status === 'created' || outcome.status === 'already-existed';
    return ledgerEntryOf(this.#planned.kind, {
      common: {
        key: journalRecordKey(batch.id, entry.key),
        sentAt: outcome.sentAt,
        ...(session.profile.currency ? { currency: session.profile.currency } : {}),
        source: {
          via: 'bulk',
          file: batch.input,
          line: result?.line ?? result?.record,
          journal: journal?.path,
          run: batch.id,
        },
        service: this.#service,
      },
      recordKey: entry.key,
      body: JSON.parse(entry.bodyJson) as Record<string, unknown>,
      bodyJson: entry.bodyJson,
      outcome: made ? 'made' : outcome.status === 'uncertain' ? 'uncertain' : 'refused',
      error: outcome.error,
      invoiceNumber: outcome.invoiceNumber,
      alreadyExisted: outcome.status === 'already-existed',
      ...(outcome.sandboxState !== undefined ? { sandboxState: outcome.sandboxState } : {}),
    });
  }
}
