import type { ServiceClient } from '../api/client.js';
import type { InvoiceKind } from '../schemas/invoice.js';
import type { Refund } from '../schemas/refund.js';

// What the engine of a run over a file needs to know of a kind of record to send it: the request it makes, and
// whether a request the service may have taken can ever be sent again.

/** The service's operations a run sends with. */
export type KindClient = Pick<ServiceClient, 'createInvoiceJson' | 'refundInvoice'>;

/** A kind of record a bulk run sends: an invoice to create, or a refund. */
export interface SendingKind {
  /** The journal's name of the kind (`single`, `recurring`, `refund`): a journal serves one kind only. */
  readonly name: InvoiceKind | 'refund';
  /** Sends one record's body, as journaled; resolves to the invoice number the record is known by. */
  send(client: KindClient, bodyJson: string): Promise<string>;
  /**
   * Whether a record with a businessReference may be sent again after a request the service may have taken (the
   * service refuses a second invoice with it, rule 2.3). A refund has no such key: it never is.
   */
  readonly resendableByReference: boolean;
}

/** Creating single or recurring invoices. */
export function invoiceSending(kind: InvoiceKind): SendingKind {
  return {
    name: kind,
    send: async (client, bodyJson) => (await client.createInvoiceJson(kind, bodyJson)).invoiceNumber,
    resendableByReference: true,
  };
}

/** A refund as a run journals it: the invoice it refunds and the request's body. */
export interface RefundRecord extends Refund {
  invoiceNumber: string;
}

/** Refunding paid invoices: the spec gives a refund no idempotency key, so one that may have left is never resent. */
export const refundSending: SendingKind = {
  name: 'refund',
  send: async (client, bodyJson) => {
    const { invoiceNumber, ...refund } = JSON.parse(bodyJson) as RefundRecord;
    await client.refundInvoice(invoiceNumber, refund);
    return invoiceNumber;
  },
  resendableByReference: false,
};
