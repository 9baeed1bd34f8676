import { faultKinds, type FaultKind, type FaultSettings } from '../schemas/sandbox-admin.js';

/** The fault settings in force, as the admin API shows them. */
export interface FaultsInForce {
  latencyMs: number;
  faults: Partial<Record<FaultKind, number>>;
  seed: number;
}

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same sequence in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Decides, once per service operation, which fault (if any) to inject. Each request takes exactly one draw, so a
 * run with the same seed and the same sequence of requests injects the same faults.
 */
export class FaultInjector {
  #settings: FaultsInForce;
  #random: () => number;

  constructor(settings: FaultsInForce) {
    this.#settings = { ...settings, faults: { ...settings.faults } };
    this.#random = mulberry32(settings.seed);
  }

  get settings(): FaultsInForce {
    return { ...this.#settings, faults: { ...this.#settings.faults } };
  }

  /** Replaces the settings given; a new seed restarts the sequence, absent fields stay as they are. */
  configure(change: FaultSettings): FaultsInForce {
    if (change.latencyMs !== undefined) this.#settings.latencyMs = change.latencyMs;
    if (change.faults !== undefined) this.#settings.faults = { ...change.faults };
    if (change.seed !== undefined) {
      this.#settings.seed = change.seed;
      this.#random = mulberry32(change.seed);
    }
    return this.settings;
  }

  /** The fault to inject into this request, or undefined. */
  draw(): FaultKind | undefined {
    const roll = this.#random();
    let threshold = 0;
    for (const kind of faultKinds) {
      threshold += this.#settings.faults[kind] ?? 0;
      if (roll < threshold) return kind;
    }
    return undefined;
  }
}
