import { startSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { newToken, rememberToken } from './secrets.js';

// A served sandbox for end-to-end tests, and a small client of its service and admin API over real HTTP.

export interface SandboxInvoice {
  invoiceNumber: string;
  kind: string;
  status: string;
  amount: number;
  orderReferenceNumber?: string;
  refunds: Array<{ amount: number; reason: string; orderReferenceNumber: string; at: string }>;
  request: unknown;
}

/** Starts a sandbox on 127.0.0.1 with a known token (registered as a secret) and an empty state. */
export async function startTestSandbox(options: SandboxOptions = {}) {
  const sandbox = await startSandbox({ token: newToken('sbx-test'), ...options });
  rememberToken(sandbox.token);
  return { ...sandbox, api: sandboxApi(sandbox.url, sandbox.token) };
}

export type TestSandbox = Awaited<ReturnType<typeof startTestSandbox>>;

/** A single invoice released now and due in 30 days, so it is issued (and can be paid) at once. */
export function unpaidInvoice(overrides: Record<string, unknown> = {}) {
  const now = Date.now();
  return {
    customer: { name: 'Mona Adel', email: 'mona@example.com', mobile: '+201001234567' },
    amount: 1234.5,
    sendingDate: new Date(now).toISOString().slice(0, 10),
    expiryDate: new Date(now + 30 * 86_400_000).toISOString(),
    releaseDate: new Date(now - 60_000).toISOString(),
    note: 'Test order',
    communicationMethod: 'SMS',
    paymentType: 'PUSH_TO_CUSTOMER',
    ...overrides,
  };
}

/** Calls the sandbox over HTTP: the service with `token`, the admin API without. */
export function sandboxApi(url: string, token: string) {
  const call = async <T>(method: string, path: string, body?: unknown, auth = false): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        // A connection of its own: a kept-alive one can be closed by the sandbox's idle timer just as a slow test
        // reuses it (ECONNRESET on a loaded machine).
        connection: 'close',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(auth ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };
  return {
    /** Creates a single invoice and returns its number. */
    async createInvoice(overrides: Record<string, unknown> = {}): Promise<string> {
      return String(
        await call<number | string>('POST', '/invoice-api/invoices/single', unpaidInvoice(overrides), true),
      );
    },
    /** Creates an invoice and pays it; returns its number and the payment's order reference number. */
    async createPaidInvoice(overrides: Record<string, unknown> = {}) {
      const invoiceNumber = await this.createInvoice(overrides);
      const { orderReferenceNumber } = await this.pay(invoiceNumber);
      return { invoiceNumber, orderReferenceNumber };
    },
    statistics: () =>
      call<Record<string, { totalCount: number; totalAmount: number }>>(
        'GET',
        '/invoice-api/invoices/statistics',
        undefined,
        true,
      ),
    pay: (invoiceNumber: string) =>
      call<{ invoiceNumber: string; status: string; orderReferenceNumber: string }>(
        'POST',
        `/__sandbox/invoices/${invoiceNumber}/pay`,
        {},
      ),
    cancel: (invoiceNumber: string) =>
      call<{ status: string }>('POST', `/__sandbox/invoices/${invoiceNumber}/cancel`, {}),
    invoices: async () => (await call<{ invoices: SandboxInvoice[] }>('GET', '/__sandbox/invoices')).invoices,
    async invoice(invoiceNumber: string): Promise<SandboxInvoice | undefined> {
      return (await this.invoices()).find((invoice) => invoice.invoiceNumber === invoiceNumber);
    },
    advanceClock: (advance: string) =>
      call<{ now: string; expired: string[] }>('POST', '/__sandbox/clock', { advance }),
    /** Issues a token that expires after `ttlSeconds` of sandbox time; it is registered as a secret. */
    async issueToken(ttlSeconds: number): Promise<string> {
      const { token: issued } = await call<{ token: string }>('POST', '/__sandbox/tokens', { ttlSeconds });
      return rememberToken(issued);
    },
    reset: (demo: boolean) => call<{ invoices: number }>('POST', '/__sandbox/reset', { demo }),
  };
}

/** The invoices the sandbox holds, and the body of the one created last. */
export async function received(sandbox: TestSandbox) {
  const invoices = await sandbox.api.invoices();
  return { count: invoices.length, last: invoices.at(-1) };
}
