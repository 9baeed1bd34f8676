import { describe, expect, it } from 'vitest';
import { ArabicWordReader } from '../../src/input/arabic-code-pages.js';
import { decodeWhole, InputDecoder } from '../../src/input/text-encoding.js';
import { savedIn } from '../helpers/code-pages.js';

// Arabic in Windows-1256 and in ISO-8859-6 share the bytes of ء to ض and differ beyond: each word is read in both,
// and a word that is Arabic in one alone tells which the text is.

function evidenceOf(bytes: Uint8Array, pieceSize = bytes.length) {
  const reader = new ArabicWordReader();
  for (let start = 0; start < bytes.length; start += pieceSize) reader.read(bytes.subarray(start, start + pieceSize));
  reader.end();
  return reader.evidence;
}

describe('ArabicWordReader', () => {
  it('finds a Windows-1256 word that is no Arabic word in ISO-8859-6 (a letter after a tanween), with its line', () => {
    const evidence = evidenceOf(savedIn('windows-1256', 'name\r\nمحمد\r\nسيد رجب\r\n'));
    expect(evidence.only['windows-1256']).toEqual({
      offset: 12,
      line: 3,
      as: { 'windows-1256': 'سيد', 'iso-8859-6': 'سٍد' },
    });
    expect(evidence.only['iso-8859-6']).toBeUndefined();
    expect(evidence.both?.as).toEqual({ 'windows-1256': 'محمد', 'iso-8859-6': 'كحكد' });
  });

  it.each([1, 2, 5])('reads a word cut between pieces of %i bytes whole', (size) => {
    expect(evidenceOf(savedIn('windows-1256', 'a,سيد,b'), size).only['windows-1256']?.as['windows-1256']).toBe('سيد');
  });

  it('finds an ISO-8859-6 word that is no Arabic word in Windows-1256 (a Latin letter among Arabic ones)', () => {
    const evidence = evidenceOf(savedIn('iso-8859-6', 'علي'));
    expect(evidence.only['iso-8859-6']?.as).toEqual({ 'windows-1256': 'ظنê', 'iso-8859-6': 'علي' });
    expect(evidence.only['windows-1256']).toBeUndefined();
  });

  it('says nothing of words read alike, Latin words, numbers, or a word that is Arabic in one and no letters in the other', () => {
    // سارة is ء-ض only; René and 12 hold ASCII; à is ـ in ISO-8859-6 but no Arabic letter in Windows-1256.
    expect(evidenceOf(savedIn('windows-1256', 'سارة René 12 à é'))).toEqual({ only: {} });
  });
});

describe('ISO-8859-6 named for an input', () => {
  it('is refused at the first word that is Arabic in Windows-1256 alone, whatever follows', () => {
    const bytes = Buffer.concat([savedIn('windows-1256', 'محمد\nسيد\n'), savedIn('iso-8859-6', 'علي\n')]);
    expect(decodeWhole(bytes, 'iso-8859-6').undecodable).toEqual({
      encoding: 'iso-8859-6',
      offset: 5,
      line: 2,
      likely: 'windows-1256',
      misread: { read: 'سٍد', likely: 'سيد', proven: true },
    });
  });

  it('is refused at the end when words are Arabic in both and none in ISO-8859-6 alone', () => {
    const decoder = new InputDecoder('iso-8859-6');
    decoder.decode(savedIn('windows-1256', `${'x'.repeat(70)}\nمحمد أحمد\n`));
    expect(decoder.undecodable).toBeUndefined();
    decoder.end();
    expect(decoder.undecodable).toMatchObject({ line: 2, misread: { read: 'كحكد', likely: 'محمد', proven: false } });
  });

  it('is read when a word shows it, the text exactly as written', () => {
    const text = 'محمد علي\nأحمد\n';
    expect(decodeWhole(savedIn('iso-8859-6', text), 'iso-8859-6')).toEqual({ text, undecodable: undefined });
  });

  it('names Windows-1256 for its bytes that are no character in ISO-8859-6', () => {
    // The Arabic comma of Windows-1256 (0xA1) is none in ISO-8859-6.
    expect(decodeWhole(savedIn('windows-1256', 'محمد، أحمد'), 'iso-8859-6').undecodable).toEqual({
      encoding: 'iso-8859-6',
      offset: 4,
      line: 1,
      likely: 'windows-1256',
    });
  });
});
