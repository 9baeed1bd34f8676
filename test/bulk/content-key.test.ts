import { describe, expect, it } from 'vitest';
import { ContentKeys, canonicalJson, contentHash, generatedReference } from '../../src/bulk/content-key.js';

// Content keys are written into journals: a rerun must compute the very same key from the same record, with any
// order of its fields, whichever version of einvoice wrote the journal.

describe('canonicalJson', () => {
  it('sorts the keys of every object, keeps arrays in order and leaves out undefined fields', () => {
    const record = {
      note: 'x',
      customer: { name: 'Amr', email: undefined, mobile: '+2010' },
      items: [{ price: 1.5, code: 'A' }, 2, null, 'é'],
      amount: 100,
      flag: true,
    };
    expect(canonicalJson(record)).toBe(
      '{"amount":100,"customer":{"mobile":"+2010","name":"Amr"},"flag":true,"items":[{"code":"A","price":1.5},2,null,"é"],"note":"x"}',
    );
    expect(canonicalJson([undefined, { b: 1, a: [] }])).toBe('[null,{"a":[],"b":1}]');
    expect(canonicalJson('text')).toBe('"text"');
    expect(canonicalJson(JSON.parse('{"b":{"z":1,"__proto__":{"y":2}},"a":[{"d":1,"c":null}]}'))).toBe(
      '{"a":[{"c":null,"d":1}],"b":{"__proto__":{"y":2},"z":1}}',
    );
    expect(canonicalJson(null)).toBe('null');
  });

  it('gives the same text for the same content in any key order', () => {
    expect(canonicalJson({ b: { d: 1, c: 2 }, a: 1 })).toBe(canonicalJson({ a: 1, b: { c: 2, d: 1 } }));
  });
});

describe('contentHash', () => {
  it('is the first 20 hex digits of the SHA-256 of the kind, a newline and the canonical text', () => {
    expect(contentHash('single', '{"amount":100}')).toBe('541521ec6c79f70f2341');
    expect(contentHash('recurring', '{"amount":100}')).not.toBe(contentHash('single', '{"amount":100}'));
  });
});

describe('ContentKeys', () => {
  it('numbers the repeats of one content', () => {
    const keys = new ContentKeys();
    expect([keys.next('abc'), keys.next('abc'), keys.next('def'), keys.next('abc')]).toEqual([
      'abc',
      'abc.1',
      'def',
      'abc.2',
    ]);
  });
});

describe('generatedReference', () => {
  it('is the prefix and 12 hex digits of the hash of position and content', () => {
    expect(generatedReference('SHOP-', '{"amount":100}', 7)).toBe('SHOP-e4c48540b2a3');
    expect(generatedReference('SHOP-', '{"amount":100}', 7)).toBe(generatedReference('SHOP-', '{"amount":100}', 7));
    expect(generatedReference('SHOP-', '{"amount":100}', 8)).not.toBe(generatedReference('SHOP-', '{"amount":100}', 7));
  });
});
