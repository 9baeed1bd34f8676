// Many short texts (businessReferences, sending dates, invoice numbers of a file's records) kept without a string
// object each: their character codes side by side in one typed array. A plan of 100,000 records held 100,000 such
// strings until it was done; every one of them outlived V8's young generation, which grew to 64 MiB and made the
// dry run's peak memory 157 MiB, and copying them made up a fifth of its time. Typed arrays live outside the
// collected heap, so a text kept here costs one byte per character (two once the table holds a character past
// U+00FF, as Arabic is) and no garbage collection work.

const firstSize = 1024;

/** Texts by slot, in the order they were added. */
export class TextTable {
  /** One byte per character while every character fits in one (Latin-1), else UTF-16 code units. */
  #units: Uint8Array | Uint16Array = new Uint8Array(firstSize * 16);
  #used = 0;
  /** Where each slot's text ends in `#units`; it begins where the slot before it ends. */
  #ends = new Int32Array(firstSize);
  #count = 0;

  /** How many texts the table holds. */
  get size(): number {
    return this.#count;
  }

  /** Keeps `text`; returns its slot. */
  add(text: string): number {
    if (this.#used + text.length > this.#units.length) {
      this.#units = grown(this.#units, this.#used + text.length);
    }
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code > 0xff && this.#units instanceof Uint8Array) {
        // The first character past one byte: every text from now on is kept in two.
        const wide = new Uint16Array(this.#units.length);
        wide.set(this.#units);
        this.#units = wide;
      }
      this.#units[this.#used + index] = code;
    }
    this.#used += text.length;
    if (this.#count === this.#ends.length) this.#ends = grown(this.#ends, this.#count + 1);
    this.#ends[this.#count] = this.#used;
    return this.#count++;
  }

  /** The text of `slot`. */
  at(slot: number): string {
    const start = this.#start(slot);
    const end = this.#ends[slot] ?? start;
    let text = '';
    // In pieces, so a long text does not pass more arguments than a call may take.
    for (let from = start; from < end; from += 4096) {
      text += String.fromCharCode(...this.#units.subarray(from, Math.min(end, from + 4096)));
    }
    return text;
  }

  /** True when the text of `slot` is `text`; makes no string. */
  is(slot: number, text: string): boolean {
    const start = this.#start(slot);
    if ((this.#ends[slot] ?? start) - start !== text.length) return false;
    for (let index = 0; index < text.length; index++) {
      if (this.#units[start + index] !== text.charCodeAt(index)) return false;
    }
    return true;
  }

  #start(slot: number): number {
    return slot === 0 ? 0 : (this.#ends[slot - 1] ?? 0);
  }
}

/** A TextTable that also finds a text's slot, by an open-addressing hash index over its texts. */
export class TextIndex {
  readonly #texts = new TextTable();
  #hashes = new Int32Array(firstSize);
  /** Slot + 1 of the text in each bucket; 0 is an empty bucket. Never more than half full. */
  #buckets = new Int32Array(firstSize * 2);

  get size(): number {
    return this.#texts.size;
  }

  /** The slot of `text`, or -1. */
  slotOf(text: string): number {
    const hash = hashOf(text);
    const mask = this.#buckets.length - 1;
    for (let bucket = hash & mask; ; bucket = (bucket + 1) & mask) {
      const entry = this.#buckets[bucket] ?? 0;
      if (entry === 0) return -1;
      if (this.#hashes[entry - 1] === hash && this.#texts.is(entry - 1, text)) return entry - 1;
    }
  }

  /** Keeps `text`, which the index does not hold yet (see `slotOf`); returns its slot. */
  add(text: string): number {
    const slot = this.#texts.add(text);
    if (slot === this.#hashes.length) this.#hashes = grown(this.#hashes, slot + 1);
    this.#hashes[slot] = hashOf(text);
    if (2 * this.#texts.size > this.#buckets.length) this.#rehash();
    else this.#place(slot);
    return slot;
  }

  at(slot: number): string {
    return this.#texts.at(slot);
  }

  #place(slot: number): void {
    const mask = this.#buckets.length - 1;
    let bucket = (this.#hashes[slot] ?? 0) & mask;
    while (this.#buckets[bucket] !== 0) bucket = (bucket + 1) & mask;
    this.#buckets[bucket] = slot + 1;
  }

  #rehash(): void {
    this.#buckets = new Int32Array(this.#buckets.length * 2);
    for (let slot = 0; slot < this.#texts.size; slot++) this.#place(slot);
  }
}

/** FNV-1a over the text's UTF-16 code units, as a 32-bit signed integer (what an Int32Array holds). */
function hashOf(text: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}

/** A copy of `array` with room for at least `needed` elements: twice as long as before, or more. */
export function grown<T extends Int32Array | Uint16Array | Uint8Array | Float64Array>(array: T, needed: number): T {
  const copy = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2));
  copy.set(array as never);
  return copy;
}
