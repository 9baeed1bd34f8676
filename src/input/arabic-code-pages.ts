// Windows-1256 (what Excel writes on an Arabic Windows) and ISO-8859-6 give the same letters for the bytes of ء to ض
// and other letters for most of the rest, so Arabic read in the wrong one of the two becomes other Arabic (محمد
// becomes كحكد) without a byte that is not text. Each word of the input is read in both: a word that is Arabic in
// one and no Arabic word in the other (a Latin letter or a sign among Arabic letters, a vowel mark that starts a word,
// a letter after the tanween that ends one) tells which it is. Zod-free: the decoder of every input uses it.

/** What a byte reads as, for the shape of a word. */
const enum Shape {
  /** Anything that is not part of an Arabic word: Latin letters, signs, controls, U+FFFD. */
  Other = 0,
  /** An Arabic letter, or the tatweel that stretches one. */
  Letter = 1,
  /** Tanween (ً ٌ ٍ): a vowel mark that ends a word. */
  Tanween = 2,
  /** Another vowel mark or the shadda (َ ُ ِ ّ ْ): on a letter, or on another mark. */
  Mark = 3,
}

/** The two Arabic single-byte code pages, as TextDecoder names them. */
export type ArabicCodePage = 'windows-1256' | 'iso-8859-6';

interface CodePage {
  /** The character of each byte. */
  chars: string[];
  shapes: Uint8Array;
}

function shapeOf(char: string): Shape {
  const code = char.codePointAt(0) as number;
  if (code >= 0x064b && code <= 0x064d) return Shape.Tanween;
  if (code >= 0x064e && code <= 0x0652) return Shape.Mark;
  return code >= 0x0600 && code <= 0x06ff && /\p{L}/u.test(char) ? Shape.Letter : Shape.Other;
}

function codePage(encoding: ArabicCodePage): CodePage {
  const decoder = new TextDecoder(encoding);
  const chars = Array.from({ length: 256 }, (_, byte) => decoder.decode(Uint8Array.of(byte)));
  return { chars, shapes: Uint8Array.from(chars, shapeOf) };
}

let pages: Record<ArabicCodePage, CodePage> | undefined;

/** Both code pages, made once, when an input is first read in one of them. */
function codePages(): Record<ArabicCodePage, CodePage> {
  pages ??= { 'windows-1256': codePage('windows-1256'), 'iso-8859-6': codePage('iso-8859-6') };
  return pages;
}

/** Bytes that belong to a word: beyond ASCII, or an ASCII letter or digit (a word holding one is no Arabic word). */
function inWord(byte: number): boolean {
  return byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a);
}

/**
 * Whether `word` reads as an Arabic word in `page`: letters, each vowel mark after a letter or a mark, no letter after
 * a tanween. `undefined` when it holds no Arabic letter at all (a Latin word, a number): neither Arabic nor broken.
 */
function readsAsArabic(word: Uint8Array, page: CodePage): boolean | undefined {
  let previous = Shape.Other;
  let letters = 0;
  let wellFormed = true;
  for (const byte of word) {
    const shape = page.shapes[byte] as Shape;
    if (shape === Shape.Letter) letters += 1;
    if (
      shape === Shape.Other ||
      (shape === Shape.Letter && previous === Shape.Tanween) ||
      (shape !== Shape.Letter && previous === Shape.Other)
    ) {
      wellFormed = false;
    }
    previous = shape;
  }
  return letters === 0 ? undefined : wellFormed;
}

/** A word read in both code pages, where it starts. */
export interface ReadWord {
  /** Its first byte, from the start of the input. */
  offset: number;
  /** Its line, from 1. */
  line: number;
  /** The word in each code page. */
  as: Record<ArabicCodePage, string>;
}

/** What the words of an input say of the code page it is in. */
export interface CodePageEvidence {
  /** The first word that is Arabic in `page` alone, if any, by code page. */
  only: Partial<Record<ArabicCodePage, ReadWord>>;
  /** The first word that is Arabic in both, in other letters. */
  both?: ReadWord;
}

/** The longest word kept whole: longer ones are read for their shape only. */
const wordLimit = 64;

/**
 * Reads the words of an input, a piece at a time, in both Arabic code pages. A word split between two pieces is read
 * whole; `offset` and `line` count across pieces.
 */
export class ArabicWordReader {
  readonly evidence: CodePageEvidence = { only: {} };
  #word: number[] = [];
  #wordOffset = 0;
  #wordLine = 1;
  #offset = 0;
  #line = 1;

  /** Reads the words of `bytes`, the next piece of the input. */
  read(bytes: Uint8Array): void {
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index] as number;
      if (inWord(byte)) {
        if (this.#word.length === 0) {
          this.#wordOffset = this.#offset + index;
          this.#wordLine = this.#line;
        }
        if (this.#word.length < wordLimit) this.#word.push(byte);
        continue;
      }
      this.#endWord();
      if (byte === 0x0a) this.#line += 1;
    }
    this.#offset += bytes.length;
  }

  /** Reads the last word of the input. */
  end(): void {
    this.#endWord();
  }

  #endWord(): void {
    const bytes = this.#word;
    if (bytes.length === 0) return;
    this.#word = [];
    const { 'windows-1256': windows, 'iso-8859-6': iso } = codePages();
    // A word both read alike (ASCII, or letters of ء to ض only) says nothing of either.
    if (bytes.every((byte) => windows.chars[byte] === iso.chars[byte])) return;
    const word = Uint8Array.from(bytes);
    const inWindows = readsAsArabic(word, windows);
    const inIso = readsAsArabic(word, iso);
    const read = (): ReadWord => ({
      offset: this.#wordOffset,
      line: this.#wordLine,
      as: {
        'windows-1256': bytes.map((byte) => windows.chars[byte]).join(''),
        'iso-8859-6': bytes.map((byte) => iso.chars[byte]).join(''),
      },
    });
    const { evidence } = this;
    if (inWindows === true && inIso === false) evidence.only['windows-1256'] ??= read();
    else if (inIso === true && inWindows === false) evidence.only['iso-8859-6'] ??= read();
    else if (inWindows === true && inIso === true) evidence.both ??= read();
  }
}
