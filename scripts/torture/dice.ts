import { createHash } from 'node:crypto';

// Every choice of a seed, drawn from the seed and the choice's name alone: the same seed makes the same choices on
// any machine, and a choice added later changes none of the others.

/** The choices of one seed. */
export class Dice {
  readonly seed: number;

  constructor(seed: number) {
    this.seed = seed;
  }

  /** A number in [0, 1) for the choice `name`. */
  number(name: string): number {
    return createHash('sha256').update(`${this.seed}/${name}`).digest().readUInt32BE(0) / 2 ** 32;
  }

  /** A whole number from `min` to `max`, both included. */
  int(name: string, min: number, max: number): number {
    return min + Math.floor(this.number(name) * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(name: string, p: number): boolean {
    return this.number(name) < p;
  }

  /** One of `choices`. */
  pick<T>(name: string, choices: readonly T[]): T {
    return choices[this.int(name, 0, choices.length - 1)] as T;
  }
}
