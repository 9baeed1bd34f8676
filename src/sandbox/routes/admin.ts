import {
  clockChangeSchema,
  faultSettingsSchema,
  invoicePageQuerySchema,
  requestPageQuerySchema,
  resetRequestSchema,
  tokenRequestSchema,
} from '../../schemas/sandbox-admin.js';
import { validate, type ValidationResult } from '../../schemas/validate.js';
import type { SandboxApp } from '../app.js';
import { issueToken } from '../auth.js';
import { changeClock, sandboxNow } from '../clock.js';
import { invoiceNotFound, jsonReply, queryOf, validationError } from '../http.js';
import { cancelInvoice, payInvoice } from '../invoices.js';
import { tick } from '../lifecycle.js';
import type { Handler, Route } from '../router.js';
import type { StoredInvoice } from '../state.js';

// The admin API under /__sandbox/: what the real service does on its own (a customer paying, time passing) and
// what a tester needs to see (the outbox, every invoice as received). No token; local callers only.

/** Tokens issued without a ttlSeconds last an hour of sandbox time. */
const defaultTokenTtlSeconds = 3600;

function checked<T>(result: ValidationResult<T>): T {
  if (!result.success) throw validationError(result.issues);
  return result.data;
}

/** An invoice as the admin API shows it: what the sandbox knows, with the request exactly as received. */
export function adminView(invoice: StoredInvoice) {
  return {
    invoiceNumber: invoice.invoiceNumber,
    kind: invoice.kind,
    status: invoice.status,
    amount: invoice.amount,
    businessReference: invoice.businessReference,
    sendingDate: invoice.sendingDate,
    releaseDate: invoice.releaseDate,
    expiryDate: invoice.expiryDate,
    createdAt: invoice.createdAt,
    issuedAt: invoice.issuedAt,
    paidAt: invoice.paidAt,
    canceledAt: invoice.canceledAt,
    expiredAt: invoice.expiredAt,
    orderReferenceNumber: invoice.orderReferenceNumber,
    cycle: invoice.cycle,
    refunds: invoice.refunds,
    request: invoice.request,
  };
}

function settle(app: SandboxApp, action: 'pay' | 'cancel'): Handler {
  return async ({ params, readJson }) => {
    const invoiceNumber = params.invoiceNumber ?? '';
    // Nothing is read from the body, but one that is sent must still be JSON.
    await readJson();
    const settled = app.store.write((state) =>
      (action === 'pay' ? payInvoice : cancelInvoice)(state, invoiceNumber, sandboxNow(state.counters())),
    );
    return jsonReply(200, {
      invoiceNumber: settled.invoiceNumber,
      status: settled.status,
      ...(settled.orderReferenceNumber ? { orderReferenceNumber: settled.orderReferenceNumber } : {}),
    });
  };
}

function readClock(app: SandboxApp): Handler {
  return async () => jsonReply(200, { now: sandboxNow(app.store.read((state) => state.counters())).toISOString() });
}

function moveClock(app: SandboxApp): Handler {
  return async ({ readJson }) => {
    const change = checked(validate(clockChangeSchema, await readJson({ required: true })));
    const result = app.store.write((state) => {
      const now = changeClock(state, change);
      return { now: now.toISOString(), expired: tick(state, now) };
    });
    return jsonReply(200, result);
  };
}

/** Every invoice, as it always was; a page of them only when `limit` or `after` asks for one. */
function listInvoices(app: SandboxApp): Handler {
  return async ({ req }) => {
    const query = checked(validate(invoicePageQuerySchema, queryOf(req)));
    const page = app.store.read((state) => {
      if (query.after !== undefined && !state.invoice(query.after)) throw invoiceNotFound(query.after);
      return state.invoices(query);
    });
    return jsonReply(200, { invoices: page.invoices.map(adminView), ...(page.next ? { next: page.next } : {}) });
  };
}

/** The service's request history in the order received; a page of it when `limit` or `after` asks for one. */
function listRequests(app: SandboxApp): Handler {
  return async ({ req }) => {
    const query = checked(validate(requestPageQuerySchema, queryOf(req)));
    return jsonReply(
      200,
      app.store.read((state) => state.requests(query)),
    );
  };
}

function listOutbox(app: SandboxApp): Handler {
  return async () => jsonReply(200, { messages: app.store.read((state) => state.outbox()) });
}

function reset(app: SandboxApp): Handler {
  return async ({ readJson }) => {
    const { demo = false } = checked(validate(resetRequestSchema, (await readJson()) ?? {}));
    // Starting over means everything: invoices, outbox, issued tokens and the clock. The main token stays valid.
    const fresh = app.newState(demo);
    app.store.write((state) => state.replace(fresh));
    return jsonReply(200, { invoices: fresh.invoices.length });
  };
}

function tokens(app: SandboxApp): Handler {
  return async ({ readJson }) => {
    const { ttlSeconds = defaultTokenTtlSeconds } = checked(validate(tokenRequestSchema, (await readJson()) ?? {}));
    const issued = app.store.write((state) => issueToken(state, ttlSeconds, sandboxNow(state.counters())));
    return jsonReply(200, issued);
  };
}

function readFaults(app: SandboxApp): Handler {
  return async () => jsonReply(200, app.faults.settings);
}

function setFaults(app: SandboxApp): Handler {
  return async ({ readJson }) => {
    const change = checked(validate(faultSettingsSchema, await readJson({ required: true })));
    return jsonReply(200, app.faults.configure(change));
  };
}

/** The admin routes. */
export function adminRoutes(app: SandboxApp): Route[] {
  return [
    { path: '/__sandbox/invoices', scope: 'admin', methods: { GET: listInvoices(app) } },
    { path: '/__sandbox/invoices/:invoiceNumber/pay', scope: 'admin', methods: { POST: settle(app, 'pay') } },
    { path: '/__sandbox/invoices/:invoiceNumber/cancel', scope: 'admin', methods: { POST: settle(app, 'cancel') } },
    { path: '/__sandbox/clock', scope: 'admin', methods: { GET: readClock(app), POST: moveClock(app) } },
    { path: '/__sandbox/outbox', scope: 'admin', methods: { GET: listOutbox(app) } },
    { path: '/__sandbox/requests', scope: 'admin', methods: { GET: listRequests(app) } },
    { path: '/__sandbox/reset', scope: 'admin', methods: { POST: reset(app) } },
    { path: '/__sandbox/tokens', scope: 'admin', methods: { POST: tokens(app) } },
    { path: '/__sandbox/faults', scope: 'admin', methods: { GET: readFaults(app), POST: setFaults(app) } },
  ];
}
