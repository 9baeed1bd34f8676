import { setTimeout as sleep } from 'node:timers/promises';

// Paces the requests of all workers together: at most `rate` per second, and a pause for everyone after a 429.

export class Pacer {
  readonly #intervalMs: number;
  #nextSlot = 0;
  #pausedUntil = 0;

  /** `rate`: requests per second, or undefined for no limit. */
  constructor(rate?: number) {
    this.#intervalMs = rate ? 1000 / rate : 0;
  }

  /** Makes every worker wait `ms` before its next request (a later pause extends an earlier one). */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + ms);
  }

  /** Resolves when this worker may send; rejects with the signal's reason when it aborts first. */
  async wait(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    for (let now = Date.now(); now < this.#pausedUntil; now = Date.now()) {
      await sleep(this.#pausedUntil - now, undefined, { signal });
    }
    if (this.#intervalMs === 0) return;
    const now = Date.now();
    const slot = Math.max(now, this.#nextSlot);
    this.#nextSlot = slot + this.#intervalMs;
    if (slot > now) await sleep(slot - now, undefined, { signal });
  }
}
