import { InvalidArgumentError } from 'commander';

// Parsers commander applies to flag values. Loaded with the command tree, so nothing heavier than commander.

/** Parses a whole number from `min` (to `max`, when given), for numeric flags. */
export function wholeNumberFlag(min: number, max?: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value.trim()) || parsed < min || (max !== undefined && parsed > max)) {
      throw new InvalidArgumentError(
        max === undefined
          ? `must be a whole number of at least ${min}`
          : `must be a whole number from ${min} to ${max}`,
      );
    }
    return parsed;
  };
}

/** Collects every value of a repeatable flag (`--item a --item b`) in the order given. */
export function repeatable(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
