import { randomUUID } from 'node:crypto';
import {
  type JournalPlace,
  type LedgerLookup,
  type Plan,
  type RecordKindName,
  type SendEntry,
  type SettledRecord,
} from '../../bulk/index.js';
import type { CommandContext } from '../../context.js';
import type { LedgerEntry } from '../../ledger/entries.js';
import { journalHeader, type JournalHeader } from '../../ledger/journal-import.js';
import { journalRecordKey, ledgerEntryOf } from '../../ledger/sent-records.js';
import { Ledger } from '../../ledger/ledger.js';
import type { LedgerRecorder } from '../../ledger/recorder.js';
import type { Session } from '../../session.js';
import { ledgerFileOf, serviceOf, startRecording } from './ledger-recording.js';

// A bulk run and the merchant's ledger: each record's outcome recorded as the run learns it (keyed as an import of
// its journal would key it, so importing the journal later changes nothing), the merchant's word on uncertain
// refunds, and what the ledger holds from other journals, as answers to the kind's questions.

/** What a bulk run needs of the ledger. */
export interface BulkLedger {
  /** What the ledger answers the kind as it checks each record (an invoice another journal sent, ...). */
  lookup(): LedgerLookup | undefined;
  /** The plan, whose records name their lines, of the kind whose records are recorded. */
  planned(plan: Plan, kind: RecordKindName): void;
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
  return new RunLedger({ session, context, journal, recorder, ledger, header });
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

class RunLedger implements BulkLedger {
  readonly #parts: RunLedgerParts;
  #planned: { plan: Plan; kind: RecordKindName } | undefined;
  #batch: Batch | undefined;
  /** Outcomes heard before the journal's first line (written by this run) was read, and that reading. */
  #waiting: Array<[SendEntry, SettledRecord, string]> = [];
  #reading: Promise<void> | undefined;
  #finished = false;

  constructor(parts: RunLedgerParts) {
    this.#parts = parts;
    if (parts.header) this.#batch = { id: parts.header.id, input: parts.header.run.input };
  }

  lookup(): LedgerLookup | undefined {
    const { ledger } = this.#parts;
    if (!ledger) return undefined;
    // This run's own journal tells its records apart: the ledger is asked of other journals' only.
    const run = this.#batch?.id;
    // Only an invoice sent without a businessReference has a content key: a ledger without one is not asked again.
    let holdsContentKeys: boolean | undefined;
    return {
      sameContent: (contentKey) => {
        holdsContentKeys ??= ledger.holdsContentKeys();
        return holdsContentKeys ? ledger.sameContent(contentKey, run) : undefined;
      },
    };
  }

  planned(plan: Plan, kind: RecordKindName): void {
    this.#planned = { plan, kind };
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
    const { session, journal } = this.#parts;
    // A failure the service never answered left nothing there; a run records only what it planned.
    if ((outcome.status === 'failed' && outcome.httpStatus === undefined) || !this.#planned) return undefined;
    const result = this.#planned.plan.results.get(entry.index);
    const made = outcome.status === 'created' || outcome.status === 'already-existed';
    return ledgerEntryOf(this.#planned.kind, {
      common: {
        key: journalRecordKey(batch.id, entry.key),
        sentAt,
        ...(session.profile.currency ? { currency: session.profile.currency } : {}),
        source: {
          via: 'bulk',
          file: batch.input,
          line: result?.line ?? result?.record,
          journal: journal?.path,
          run: batch.id,
        },
        service: serviceOf(session, this.#parts.context),
      },
      recordKey: entry.key,
      body: JSON.parse(entry.bodyJson) as Record<string, unknown>,
      bodyJson: entry.bodyJson,
      outcome: made ? 'made' : outcome.status === 'uncertain' ? 'uncertain' : 'refused',
      error: outcome.error,
      invoiceNumber: outcome.invoiceNumber,
      alreadyExisted: outcome.status === 'already-existed',
    });
  }
}
