import { invoiceSchemas, type InvoiceKind } from '../../schemas/invoice.js';
import { invoiceNumberSchema } from '../../schemas/invoice-number.js';
import { refundSchema } from '../../schemas/refund.js';
import { validate } from '../../schemas/validate.js';
import type { SandboxApp } from '../app.js';
import { sandboxNow } from '../clock.js';
import { invoiceNotFound, jsonReply, validationError } from '../http.js';
import { createInvoice, refundInvoice } from '../invoices.js';
import { tick } from '../lifecycle.js';
import type { Handler, Route } from '../router.js';
import type { Counters } from '../store.js';
import { sandboxStateHeader } from '../../schemas/sandbox-admin.js';

// The four operations of the service interface (section 4), each behind the merchant token.

function statistics(app: SandboxApp): Handler {
  return async () =>
    jsonReply(
      200,
      app.store.read((state) => state.statistics()),
    );
}

function create(app: SandboxApp, kind: InvoiceKind): Handler {
  return async ({ readJson }) => {
    const request = await readJson({ required: true });
    const result = validate(invoiceSchemas[kind], request);
    if (!result.success) throw validationError(result.issues);
    // Answered once the transaction has committed: a 201 is never for an invoice that could still be lost.
    const { invoiceNumber, counters } = app.store.write((state) => {
      const counted = state.counters();
      const now = sandboxNow(counted);
      const invoice = createInvoice(state, kind, request, result.data, now);
      // Issues the invoice at once when its release date has passed, notifying the customer.
      tick(state, now);
      return { invoiceNumber: invoice.invoiceNumber, counters: counted };
    });
    // The service answers with a bare JSON number; the digits are written as text so none is rounded.
    return { status: 201, json: invoiceNumber, headers: stateHeader(counters), committed: true, invoiceNumber };
  };
}

function refund(app: SandboxApp): Handler {
  return async ({ params, readJson }) => {
    const invoiceNumber = params.invoiceNumber ?? '';
    if (!validate(invoiceNumberSchema, invoiceNumber).success) throw invoiceNotFound(invoiceNumber);
    const request = await readJson({ required: true });
    const result = validate(refundSchema, request);
    if (!result.success) throw validationError(result.issues);
    const counters = app.store.write((state) => {
      const counted = state.counters();
      refundInvoice(state, invoiceNumber, result.data, sandboxNow(counted));
      return counted;
    });
    return { ...jsonReply(200, {}), headers: stateHeader(counters), committed: true, invoiceNumber };
  };
}

/** The header naming the state that answered: invoice numbers start again in a new one (`SandboxState.stateId`). */
function stateHeader(counters: Counters): Record<string, string> | undefined {
  return counters.stateId === undefined ? undefined : { [sandboxStateHeader]: counters.stateId };
}

/** The service's routes; both statistics paths of section 4.1 answer the same. */
export function serviceRoutes(app: SandboxApp): Route[] {
  return [
    { path: '/invoice-api/invoices/statistics', scope: 'service', methods: { GET: statistics(app) } },
    { path: '/invoice-api/invoice-statistics', scope: 'service', methods: { GET: statistics(app) } },
    { path: '/invoice-api/invoices/single', scope: 'service', methods: { POST: create(app, 'single') } },
    { path: '/invoice-api/invoices/recurring', scope: 'service', methods: { POST: create(app, 'recurring') } },
    { path: '/invoice-api/invoices/:invoiceNumber/refund', scope: 'service', methods: { POST: refund(app) } },
  ];
}
