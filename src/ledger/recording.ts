import type { LocalDatabase, SqlValue } from '../local-database.js';
import { minorToText } from '../schemas/money.js';
import { isSameInvoice } from '../schemas/same-invoice.js';
import {
  invoiceFields,
  minorOf,
  type InvoiceEntry,
  type LedgerEntry,
  type LedgerSource,
  type RefundEntry,
} from './entries.js';

// How a step of a request changes the ledger, inside the caller's transaction. The request's own row of `history`
// keeps its latest step; the entry it belongs to (an invoice, a refund) takes its status from its requests. An
// invoice is found by its number within its scope, so a request of another run or journal joins it; a request
// without a number is an entry of its own until an answer names its invoice.

/** What the ledger holds of one request: its latest step. */
interface HeldStep {
  entry: number;
  at: string;
  status: string;
  marked: number;
}

/** A step of a request as `replaces()` weighs it: its instant, its answer, and whether that is the merchant's word. */
interface IncomingStep {
  at: string;
  status: string;
  marked: boolean;
}

/** The statuses that say the service did what was asked. */
const done = new Set(['created', 'refunded']);

/**
 * Whether `incoming` replaces what the ledger holds of the same request. Never backwards: an older step (an older
 * copy of a journal, a writer that comes late) changes nothing; an attempt's answer is never turned back into
 * "uncertain" by another account of the same attempt; the service's yes stands against anything but itself.
 */
export function replaces(held: Omit<HeldStep, 'entry'>, incoming: IncomingStep): boolean {
  if (incoming.at < held.at) return false;
  if (incoming.at === held.at && incoming.status === 'uncertain' && held.status !== 'uncertain') return false;
  if (done.has(held.status) && !held.marked && !done.has(incoming.status)) return false;
  return true;
}

/** The numbering an invoice number belongs to: the service, and the sandbox state that answered, if one did. */
export function scopeOf(service: string | undefined, sandboxState: string | undefined): string {
  return sandboxState === undefined ? (service ?? '') : `${service ?? ''} (sandbox state ${sandboxState})`;
}

/** Records steps of requests in the ledger, within a transaction its caller holds. */
export class Recording {
  readonly #db: LocalDatabase;
  /** The scope last seen of each service, for a step whose answer names none. */
  readonly #scopes = new Map<string, string>();
  /** The scopes this recording has told the ledger of already. */
  readonly #seen = new Set<string>();
  /** Whether the ledger holds refunds in a scope. */
  readonly #refundScopes = new Map<string, boolean>();

  constructor(db: LocalDatabase) {
    this.#db = db;
  }

  /** Records one step of a request. */
  record(entry: LedgerEntry): void {
    const scope = this.#scope(entry);
    if (entry.type === 'invoice') this.#invoice(entry, scope);
    else this.#refund(entry, scope);
  }

  /**
   * The merchant's word on a request the ledger holds (`status` at `at`, explained by `decided`). False when the
   * ledger holds no such request, or holds a later step of it.
   */
  mark(type: 'invoice' | 'refund', key: string, status: string, at: string, decided: string): boolean {
    const held = this.#held(key);
    if (!held || !replaces(held, { at, status, marked: true })) return false;
    this.#db.run(
      'UPDATE history SET at = ?, status = ?, marked = 1, error = NULL, decided = ? WHERE request_key = ?',
      at,
      status,
      decided,
      key,
    );
    if (type === 'invoice') this.#settleInvoice(held.entry);
    else this.#settleRefund(held.entry);
    return true;
  }

  /** The scope of a step: its sandbox state's, else the one last seen of its service, else the service. */
  #scope(entry: LedgerEntry): string {
    const service = entry.service ?? '';
    if (entry.sandboxState !== undefined) {
      const scope = scopeOf(service, entry.sandboxState);
      if (!this.#seen.has(scope)) {
        const named = this.#db.get('SELECT 1 FROM scopes WHERE service = ?', service) !== undefined;
        // What was recorded of the service before it named any state (answers without one: "already existed", a
        // request of a run killed before its first answer) is of the first state it names, where its refunds look.
        if (!named) {
          for (const table of ['invoices', 'refunds']) {
            this.#db.run(`UPDATE ${table} SET scope = ? WHERE scope = ?`, scope, service);
          }
        }
        // The latest the service answered from (an older journal imported later does not move it back).
        this.#db.run(
          `INSERT INTO scopes (service, scope, seen_at) VALUES (?, ?, ?)
           ON CONFLICT (service) DO UPDATE SET scope = excluded.scope, seen_at = excluded.seen_at
           WHERE excluded.seen_at >= scopes.seen_at`,
          service,
          scope,
          entry.sentAt,
        );
        this.#seen.add(scope);
        this.#scopes.delete(service);
      }
      return scope;
    }
    let scope = this.#scopes.get(service);
    if (scope === undefined) {
      scope = String(this.#db.get('SELECT scope FROM scopes WHERE service = ?', service)?.scope ?? service);
      this.#scopes.set(service, scope);
    }
    return scope;
  }

  #held(key: string): HeldStep | undefined {
    return this.#db.get('SELECT entry, at, status, marked FROM history WHERE request_key = ?', key) as
      HeldStep | undefined;
  }

  #invoice(entry: InvoiceEntry, scope: string): void {
    const body = entry.body ?? (JSON.parse(entry.bodyJson) as Record<string, unknown>);
    const fields = invoiceFields(body);
    // Most steps are the first of a request, of an invoice the ledger does not hold: written at once. A request or a
    // number it holds already is found by the conflict, and taken the long way. An answer "already existed" without
    // a number is looked for by rule 2.3.2 first.
    if (!entry.alreadyExisted || entry.invoiceNumber !== undefined) {
      const id = this.#insertInvoice(entry, scope, body, fields);
      if (id !== undefined) {
        if (this.#step(entry, 'invoice', id, false)) return this.#refundedBefore(scope, entry.invoiceNumber);
        this.#db.run('DELETE FROM invoices WHERE id = ?', id);
      }
    }
    const at = entry.at ?? entry.sentAt;
    const held = this.#held(entry.key);
    if (held && !replaces(held, { at, status: entry.status, marked: entry.marked ?? false })) return;
    // The invoice this answer names, if the ledger holds it already: by its number, or by rule 2.3.2.
    const named =
      entry.invoiceNumber !== undefined
        ? this.#numbered(scope, entry.invoiceNumber)
        : entry.alreadyExisted
          ? this.#sameInvoice(scope, fields)
          : undefined;
    let id = held?.entry ?? named;
    if (held && named !== undefined && named !== held.entry) {
      this.#merge(held.entry, named);
      id = named;
    }
    if (id === undefined) {
      // A new invoice: its first request's step is its status.
      id = this.#insertInvoice(entry, scope, body, fields) as number;
      this.#step(entry, 'invoice', id, false);
    } else {
      if (entry.invoiceNumber !== undefined) {
        // The number is of the numbering the answer came from: an entry recorded before any answer named one (a
        // request of a run killed before its first answer) moves into it, where its refunds look for it.
        this.#db.run(
          'UPDATE invoices SET invoice_number = ?, scope = ? WHERE id = ? AND invoice_number IS NULL',
          entry.invoiceNumber,
          scope,
          id,
        );
      }
      this.#step(entry, 'invoice', id, held !== undefined);
      this.#settleInvoice(id);
    }
    this.#refundedBefore(scope, entry.invoiceNumber);
  }

  /** A refund recorded before the invoice it refunds (journals come in any order) marks it now. */
  #refundedBefore(scope: string, invoiceNumber: string | undefined): void {
    if (invoiceNumber === undefined) return;
    // A ledger without refunds in the scope (most bulk runs' steps) is not asked again for each invoice.
    let any = this.#refundScopes.get(scope);
    if (any === undefined) {
      any = this.#db.get('SELECT 1 FROM refunds WHERE scope = ? LIMIT 1', scope) !== undefined;
      this.#refundScopes.set(scope, any);
    }
    if (any && this.#db.get('SELECT 1 FROM refunds WHERE scope = ? AND invoice_number = ?', scope, invoiceNumber)) {
      this.#refreshRefundStatus(scope, invoiceNumber);
    }
  }

  #refund(entry: RefundEntry, scope: string): void {
    this.#refundScopes.set(scope, true);
    const at = entry.at ?? entry.sentAt;
    const held = this.#held(entry.key);
    if (held && !replaces(held, { at, status: entry.status, marked: entry.marked ?? false })) return;
    const id = held?.entry ?? this.#insertRefund(entry, scope);
    this.#step(entry, 'refund', id, held !== undefined);
    this.#settleRefund(id);
  }

  /**
   * Writes the request's latest step: a new row of `history`, or its row brought up to date. False when a new row
   * was asked for and the ledger holds the request already (nothing is written).
   */
  #step(entry: LedgerEntry, type: 'invoice' | 'refund', id: number, known: boolean): boolean {
    const at = entry.at ?? entry.sentAt;
    const error = entry.status === 'created' || entry.status === 'refunded' ? null : (entry.error ?? null);
    const decided = entry.decided ?? (entry.type === 'invoice' && entry.alreadyExisted ? alreadyHeld : null);
    const marked = entry.marked ? 1 : 0;
    if (known) {
      this.#db.run(
        `UPDATE history SET at = ?, status = ?, marked = ?, error = ?, decided = coalesce(?, decided)
         WHERE request_key = ?`,
        at,
        entry.status,
        marked,
        error,
        decided,
        entry.key,
      );
      return true;
    }
    const { source } = entry;
    const inserted = this.#db.run(
      `INSERT INTO history (request_key, type, entry, sent_at, at, status, marked, error, decided, via, source_file,
         source_line, journal, run)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (request_key) DO NOTHING`,
      entry.key,
      type,
      id,
      entry.sentAt,
      at,
      entry.status,
      marked,
      error,
      decided,
      ...sourceValues(source),
    );
    return inserted.changes > 0;
  }

  #numbered(scope: string, invoiceNumber: string): number | undefined {
    const row = this.#db.get('SELECT id FROM invoices WHERE scope = ? AND invoice_number = ?', scope, invoiceNumber);
    return row === undefined ? undefined : Number(row.id);
  }

  /** An invoice the ledger holds as created that is the same invoice as `fields` by rule 2.3.2. */
  #sameInvoice(scope: string, fields: ReturnType<typeof invoiceFields>): number | undefined {
    const { businessReference, amountMinor, sendingDate } = fields;
    if (businessReference === null || amountMinor === null || sendingDate === null) return undefined;
    const identity = { businessReference, amount: amountOf(amountMinor), sendingDate };
    for (const row of this.#db.all(
      `SELECT id, amount_minor, sending_date FROM invoices
       WHERE business_reference = ? AND scope = ? AND status = 'created' ORDER BY id`,
      businessReference,
      scope,
    )) {
      const earlier = {
        businessReference,
        amount: amountOf(Number(row.amount_minor)),
        sendingDate: String(row.sending_date),
      };
      if (row.amount_minor !== null && isSameInvoice(earlier, identity)) return Number(row.id);
    }
    return undefined;
  }

  /** The entry `from` joins `into`: its requests become `into`'s, and its id leads there. */
  #merge(from: number, into: number): void {
    this.#db.run("UPDATE history SET entry = ? WHERE type = 'invoice' AND entry = ?", into, from);
    this.#db.run('UPDATE merged SET into_id = ? WHERE into_id = ?', into, from);
    this.#db.run('INSERT OR REPLACE INTO merged (id, into_id) VALUES (?, ?)', from, into);
    this.#db.run('DELETE FROM invoices WHERE id = ?', from);
  }

  /** Inserts a new invoice; undefined when the ledger holds its number in its scope already (nothing is written). */
  #insertInvoice(
    entry: InvoiceEntry,
    scope: string,
    body: Record<string, unknown>,
    fields: ReturnType<typeof invoiceFields>,
  ): number | undefined {
    const { source } = entry;
    const values: SqlValue[] = [
      scope,
      entry.kind,
      entry.status,
      entry.invoiceNumber ?? null,
      fields.businessReference,
      fields.customerName,
      fields.customerMobile,
      fields.customerEmail,
      fields.amountMinor,
      entry.currency ?? null,
      fields.sendingDate,
      fields.expiryDate,
      entry.sentAt,
      entry.at ?? entry.sentAt,
      ...sourceValues(source),
      entry.service ?? null,
      body.businessReference === undefined ? (entry.contentKey ?? null) : null,
      entry.bodyJson,
    ];
    const inserted = this.#db.run(
      `INSERT INTO invoices (scope, kind, status, invoice_number, business_reference, customer_name, customer_mobile,
         customer_email, amount_minor, currency, sending_date, expiry_date, sent_at, answered_at, via, source_file,
         source_line, journal, run, service, content_key, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      ...values,
    );
    return inserted.changes > 0 ? Number(inserted.lastInsertRowid) : undefined;
  }

  #insertRefund(entry: RefundEntry, scope: string): number {
    const body = entry.body ?? (JSON.parse(entry.bodyJson) as Record<string, unknown>);
    const { source } = entry;
    const inserted = this.#db.run(
      `INSERT INTO refunds (scope, invoice_number, status, amount_minor, currency, reason, order_reference, sent_at,
         answered_at, via, source_file, source_line, journal, run, service, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      scope,
      entry.invoiceNumber,
      entry.status,
      minorOf(body.amount),
      entry.currency ?? null,
      typeof body.reason === 'string' ? body.reason : null,
      typeof body.orderReferenceNumber === 'string' ? body.orderReferenceNumber : null,
      entry.sentAt,
      entry.at ?? entry.sentAt,
      ...sourceValues(source),
      entry.service ?? null,
      entry.bodyJson,
    );
    return Number(inserted.lastInsertRowid);
  }

  /**
   * An invoice takes its status from its requests: created when one was (the service's answer before the merchant's
   * word, the request that created it before a later one the service said it already held), else the latest
   * request's.
   */
  #settleInvoice(id: number): void {
    this.#db.run(`${settleInvoices} WHERE id = ?1`, id, alreadyHeld);
  }

  /**
   * Settles again each invoice a later request found held: a ledger of version 2 took that request's step as the
   * invoice's, so its entry said the service already held it.
   */
  settleInvoicesMetAgain(): void {
    this.#db.run(
      `${settleInvoices} WHERE id IN (SELECT entry FROM history WHERE type = 'invoice' AND decided = ?2)`,
      null,
      alreadyHeld,
    );
  }

  /** A refund takes its request's status, and the invoice it refunds its refund status. */
  #settleRefund(id: number): void {
    this.#db.run(
      `UPDATE refunds SET (status, marked, answered_at, error, decided) = (
         SELECT status, marked, at, error, decided FROM history WHERE type = 'refund' AND entry = ?1
         ORDER BY at DESC LIMIT 1)
       WHERE id = ?1`,
      id,
    );
    const row = this.#db.get('SELECT scope, invoice_number FROM refunds WHERE id = ?', id);
    if (row) this.#refreshRefundStatus(String(row.scope), String(row.invoice_number));
  }

  /** The invoice takes the status of its refunds: refunded if one was made, refund-uncertain if one may have been. */
  #refreshRefundStatus(scope: string, invoiceNumber: string): void {
    this.#db.run(
      `UPDATE invoices SET refund_status = CASE
         WHEN EXISTS (SELECT 1 FROM refunds WHERE scope = ?1 AND invoice_number = ?2 AND status = 'refunded')
           THEN 'refunded'
         WHEN EXISTS (SELECT 1 FROM refunds WHERE scope = ?1 AND invoice_number = ?2 AND status = 'uncertain')
           THEN 'refund-uncertain' END
       WHERE scope = ?1 AND invoice_number = ?2`,
      scope,
      invoiceNumber,
    );
  }
}

/** What the ledger writes of an invoice the service said it already held. */
export const alreadyHeld = 'the service already held it when it was sent again';

/** The update that gives invoices (`?1` one's id, where the caller says so) the status of their deciding request. */
const settleInvoices = `UPDATE invoices SET (status, marked, answered_at, error, decided) = (
  SELECT status, marked, at, error, decided FROM history WHERE type = 'invoice' AND entry = invoices.id
  ORDER BY status = 'created' AND marked = 0 DESC, status = 'created' DESC, decided IS ?2, at DESC LIMIT 1)`;

function amountOf(minor: number): number {
  return Number(minorToText(BigInt(minor)));
}

/** Where a request came from, as the columns `via, source_file, source_line, journal, run` take it. */
function sourceValues(source: LedgerSource): SqlValue[] {
  return [source.via, source.file ?? null, source.line ?? null, source.journal ?? null, source.run ?? null];
}
