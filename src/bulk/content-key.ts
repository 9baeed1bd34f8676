import { hash } from 'node:crypto';

// A record is known across runs by what it says, not where it sits: its key is a hash of its content (keys in any
// order, `$schema` left out), so a rerun finds it again after records were added, removed or moved.

/** The JSON text of `value` with object keys sorted, so the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  // JSON.stringify does the writing (undefined fields left out, undefined array items as null), of a copy with its
  // keys in order: twice as fast as writing it piece by piece, for the thousands of records of a bulk run.
  try {
    return JSON.stringify(withSortedKeys(value)) ?? 'null';
  } catch (error) {
    if (error !== indexKey) throw error;
    return writtenPiecewise(value);
  }
}

/** The same text written piece by piece: for an object with a key like `"10"`, which no copy can put in order. */
function writtenPiecewise(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    return `[${value.map((item: unknown) => writtenPiecewise(item === undefined ? null : item)).join(',')}]`;
  }
  const object = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(object).sort()) {
    if (object[key] !== undefined) parts.push(`${JSON.stringify(key)}:${writtenPiecewise(object[key])}`);
  }
  return `{${parts.join(',')}}`;
}

/** Thrown by `withSortedKeys` at a key JavaScript lists before all others, in number order: `"9"` before `"10"`. */
const indexKey = Symbol('an array-index key');
const arrayIndex = /^(?:0|[1-9]\d{0,9})$/;

/** `value` with the keys of every object in order: itself when they already are, else a copy of what is not. */
function withSortedKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const sorted = withSortedKeys(item);
      if (sorted !== item) (copy ??= [...value])[index] = sorted;
    });
    return copy ?? value;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  // Objects list such keys first and in number order, not in the order sort() gives: "10" before "9".
  if (keys.length > 0 && arrayIndex.test(keys[0] as string)) throw indexKey;
  let inOrder = true;
  for (let index = 1; index < keys.length && inOrder; index++) {
    inOrder = (keys[index - 1] as string) < (keys[index] as string);
  }
  if (!inOrder) keys.sort();
  let copy: Record<string, unknown> | undefined = inOrder ? undefined : {};
  for (const key of keys) {
    const item = object[key];
    const sorted = withSortedKeys(item);
    if (copy === undefined && sorted !== item) copy = { ...object };
    if (copy === undefined) continue;
    // A key named __proto__ (JSON.parse makes it an own field) is defined, not assigned, so it stays a field.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: sorted, enumerable: true, writable: true });
    else copy[key] = sorted;
  }
  return copy ?? object;
}

/** A short hash of the record's kind and canonical content. */
export function contentHash(kind: string, canonical: string): string {
  // The first 10 bytes, as hex: a string of its own, where slice() would keep the whole digest's text alive.
  return hash('sha256', `${kind}\n${canonical}`, 'buffer').toString('hex', 0, 10);
}

/**
 * Gives each record its content key: the hash, plus how many earlier records had the same content, so identical
 * records (two equal invoices without a businessReference) stay distinct.
 */
export class ContentKeys {
  readonly #seen = new Map<string, number>();

  next(hash: string): string {
    const occurrence = this.#seen.get(hash) ?? 0;
    this.#seen.set(hash, occurrence + 1);
    return occurrence === 0 ? hash : `${hash}.${occurrence}`;
  }
}

/** The businessReference `--reference-prefix` gives a record without one: the prefix and a hash of content and position. */
export function generatedReference(prefix: string, canonical: string, recordNumber: number): string {
  return `${prefix}${hash('sha256', `${recordNumber}\n${canonical}`, 'hex').slice(0, 12)}`;
}
