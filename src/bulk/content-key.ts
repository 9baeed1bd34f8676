import { createHash } from 'node:crypto';
import type { InvoiceKind } from '../schemas/invoice.js';

// A record is known across runs by what it says, not where it sits: its key is a hash of its content (keys in any
// order, `$schema` left out), so a rerun finds it again after records were added, removed or moved.

/** The JSON text of `value` with object keys sorted, so the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const object = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(object).sort()) {
    if (object[key] !== undefined) parts.push(`${JSON.stringify(key)}:${canonicalJson(object[key])}`);
  }
  return `{${parts.join(',')}}`;
}

/** A short hash of the record's kind and canonical content. */
export function contentHash(kind: InvoiceKind, canonical: string): string {
  return createHash('sha256').update(kind).update('\n').update(canonical).digest('hex').slice(0, 20);
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
  return `${prefix}${createHash('sha256').update(`${recordNumber}\n${canonical}`).digest('hex').slice(0, 12)}`;
}
