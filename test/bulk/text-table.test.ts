import { describe, expect, it } from 'vitest';
import { TextIndex, TextTable } from '../../src/bulk/text-table.js';

// Texts a merchant's file may hold: empty, Latin-1 (kept in one byte each until the first wider one), Arabic, an
// emoji (a surrogate pair), a lone surrogate, a text longer than one piece of the copy back, and control characters.
const texts = ['', 'INV-1', 'café Ü ÿ', 'فاتورة-٧', 'ref 🧾 1', '\ud800x', 'x'.repeat(10_000), 'a\u0000b\nc'];

describe('a text table', () => {
  it('gives every text back exactly, by its slot, in the order they were added', () => {
    const table = new TextTable();
    const slots = texts.map((text) => table.add(text));
    expect(slots).toEqual(texts.map((_, index) => index));
    expect(slots.map((slot) => table.at(slot))).toEqual(texts);
    expect(table.size).toBe(texts.length);
  });

  it('tells whether a slot holds a text, in one byte per character and in two', () => {
    const table = new TextTable();
    const slot = table.add('BR-100');
    expect(table.is(slot, 'BR-100')).toBe(true);
    expect(table.is(slot, 'BR-10')).toBe(false);
    expect(table.is(slot, 'BR-1000')).toBe(false);
    expect(table.is(slot, 'BR-101')).toBe(false);
    // U+0131 would be 0x31 ("1") if cut to one byte.
    expect(table.is(slot, 'BR-\u0131\u0130\u0130')).toBe(false);
    const arabic = table.add('فاتورة-٧');
    expect(table.is(arabic, 'فاتورة-٧')).toBe(true);
    expect(table.is(arabic, 'فاتورة-٨')).toBe(false);
    expect(table.is(slot, 'BR-100')).toBe(true);
  });

  it('keeps 100,000 texts as it grows', () => {
    const table = new TextTable();
    for (let index = 0; index < 100_000; index++) table.add(`REF-${index}`);
    expect(table.at(0)).toBe('REF-0');
    expect(table.at(65_537)).toBe('REF-65537');
    expect(table.at(99_999)).toBe('REF-99999');
  });
});

describe('a text index', () => {
  it('finds the slot of every text it holds, and -1 for any other', () => {
    const index = new TextIndex();
    const slots = texts.map((text) => index.add(text));
    expect(texts.map((text) => index.slotOf(text))).toEqual(slots);
    expect(slots.map((slot) => index.at(slot))).toEqual(texts);
    expect(index.slotOf('INV-2')).toBe(-1);
    expect(index.slotOf('x'.repeat(9_999))).toBe(-1);
    expect(index.slotOf('\ud800')).toBe(-1);
  });

  it('finds each of 100,000 texts after growing many times', () => {
    const index = new TextIndex();
    for (let slot = 0; slot < 100_000; slot++) expect(index.add(`BR-${slot}`)).toBe(slot);
    expect(index.size).toBe(100_000);
    for (let slot = 0; slot < 100_000; slot += 997) expect(index.slotOf(`BR-${slot}`)).toBe(slot);
    expect(index.slotOf('BR-100000')).toBe(-1);
    expect(index.slotOf('br-1')).toBe(-1);
  });
});
