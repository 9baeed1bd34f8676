import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxRequest } from '../../src/schemas/sandbox-admin.ts';
import type { FaultKind } from './scenario.ts';

// The service of a seed: `einvoice sandbox serve` in a process of its own over a state file, as a merchant's test
// rig would run it, watched and set up through its admin API over HTTP.

/** An invoice as the sandbox's admin API shows it. */
export interface ServiceInvoice {
  invoiceNumber: string;
  status: string;
  amount: number;
  orderReferenceNumber?: string;
  refunds: Array<{ amount: number; reason: string; orderReferenceNumber: string; at: string }>;
  request: { note?: string; businessReference?: string } & Record<string, unknown>;
}

export type { SandboxRequest };

/** A sandbox served for one seed. */
export class Service {
  readonly url: string;
  readonly token: string;
  readonly #process: ChildProcess;

  private constructor(url: string, token: string, process: ChildProcess) {
    this.url = url;
    this.token = token;
    this.#process = process;
  }

  /** Serves a sandbox over `stateFile` with `token`, started by `command` (the CLI as a merchant runs it). */
  static async start(command: [string, string[]], stateFile: string, token: string, env: NodeJS.ProcessEnv) {
    const [file, args] = command;
    const child = spawn(
      file,
      [...args, 'sandbox', 'serve', '--port', '0', '--json', '--token', token, '--state', stateFile],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    while (!stdout.includes('\n')) {
      if (child.exitCode !== null) throw new Error(`einvoice sandbox serve ended at once:\n${stderr}`);
      await Promise.race([once(child.stdout!, 'data'), once(child, 'exit')]);
    }
    const { url } = JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as { url: string };
    return new Service(url, token, child);
  }

  async #call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        // A connection of its own: a kept-alive one can be closed by the sandbox's idle timer just as a loaded
        // machine reuses it (ECONNRESET), which would fail a seed for the harness's sake, not einvoice's.
        connection: 'close',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  }

  /** Creates an invoice through the service itself (the faults are off while a seed sets up). */
  createInvoice(body: object): Promise<string> {
    return this.#call<number | string>('POST', '/invoice-api/invoices/single', body, this.token).then(String);
  }

  pay(invoiceNumber: string): Promise<{ orderReferenceNumber: string }> {
    return this.#call('POST', `/__sandbox/invoices/${invoiceNumber}/pay`, {});
  }

  setFaults(settings: { faults: Partial<Record<FaultKind, number>>; latencyMs: number; seed: number }) {
    return this.#call('POST', '/__sandbox/faults', settings);
  }

  async invoices(): Promise<ServiceInvoice[]> {
    return (await this.#call<{ invoices: ServiceInvoice[] }>('GET', '/__sandbox/invoices')).invoices;
  }

  /** The requests received after the seq `after`, every one of them. */
  async requests(after = 0): Promise<SandboxRequest[]> {
    const requests: SandboxRequest[] = [];
    for (let cursor: string | undefined = String(after); cursor !== undefined;) {
      const page: { requests: SandboxRequest[]; next?: string } = await this.#call(
        'GET',
        `/__sandbox/requests?limit=1000&after=${cursor}`,
      );
      requests.push(...page.requests);
      cursor = page.next;
    }
    return requests;
  }

  /**
   * Waits until no request after the seq `after` is in flight: what a client left behind has ended, and the state
   * holds all it will. Returns the seq of the last request received.
   */
  async quiet(after: number): Promise<number> {
    let last: number | undefined;
    for (;;) {
      const requests = await this.requests(after);
      const seq = requests.at(-1)?.seq ?? after;
      // Twice the same: a request a killed client had already written has reached the history too.
      if (requests.every((request) => request.ended !== 'in-flight') && seq === last) return seq;
      last = seq;
      await sleep(10);
    }
  }

  async stop(): Promise<void> {
    if (this.#process.exitCode !== null || this.#process.signalCode !== null) return;
    const ended = once(this.#process, 'exit');
    this.#process.kill('SIGTERM');
    await ended;
  }
}
