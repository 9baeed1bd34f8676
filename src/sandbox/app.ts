import { sandboxNow } from './clock.js';
import { demoState } from './demo.js';
import type { FaultInjector } from './faults.js';
import { needsTick, tick } from './lifecycle.js';
import { emptyState, type SandboxState } from './state.js';
import type { StateStore } from './store.js';

/** A new state numbering from `firstInvoiceNumber`, empty or with the demo invoices dated from now. */
export function freshState(firstInvoiceNumber: string, demo: boolean): SandboxState {
  return demo ? demoState(firstInvoiceNumber, new Date()) : emptyState(firstInvoiceNumber);
}

/** What the handlers share: the state, the merchant token, the fault settings and how to start over. */
export class SandboxApp {
  readonly store: StateStore;
  readonly token: string;
  readonly faults: FaultInjector;
  readonly firstInvoiceNumber: string;

  constructor(options: { store: StateStore; token: string; faults: FaultInjector; firstInvoiceNumber: string }) {
    this.store = options.store;
    this.token = options.token;
    this.faults = options.faults;
    this.firstInvoiceNumber = options.firstInvoiceNumber;
  }

  /** A new state, empty or with the demo invoices. */
  newState(demo: boolean): SandboxState {
    return freshState(this.firstInvoiceNumber, demo);
  }

  /** Runs the time-driven transitions when some are due; a request otherwise only reads. */
  tick(): void {
    const due = this.store.read((state) => needsTick(state, sandboxNow(state.counters())));
    if (due) this.store.write((state) => tick(state, sandboxNow(state.counters())));
  }
}
