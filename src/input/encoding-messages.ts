import { quotedVisibly } from '../schemas/visible-text.js';
import { encodingNames, type EncodingName, type UndecodableBytes } from './text-encoding.js';

// What the refusal of an input read in the wrong encoding says: where the bytes that give it away are, what the
// input most likely is, and the way out, for a sheet in the words of a spreadsheet's "Save as".

/** The encoding's name as a merchant reads it. */
function shown(encoding: EncodingName): string {
  return {
    'utf-8': 'UTF-8',
    'utf-16le': 'UTF-16',
    'utf-16be': 'UTF-16',
    'windows-1256': 'Windows-1256',
    'iso-8859-6': 'ISO-8859-6',
  }[encoding];
}

/**
 * What the refusal of an input with undecodable bytes says: where they are, the likely cause and the way out.
 * `sheet` words it for a spreadsheet.
 */
export function undecodableMessage(
  found: UndecodableBytes,
  name: string,
  sheet: boolean,
): { problem: string; hint: string } {
  const encoding = shown(found.encoding);
  if (found.misread) return misreadMessage(found, found.misread, name, sheet);
  if (found.likely === 'utf-8') {
    return {
      problem: `${name} is UTF-8 text, not ${encoding}: read as ${encoding}, line ${found.line} would become other letters (from byte ${found.offset + 1})`,
      hint: `Drop --encoding ${found.encoding}: UTF-8 is read without it.`,
    };
  }
  const problem = `${name} is not ${encoding} text: line ${found.line} holds bytes that are not ${encoding} (from byte ${found.offset + 1})`;
  if (found.likely === 'windows-1256') {
    return {
      problem,
      hint: sheet
        ? "This sheet looks like it was saved as 'CSV (Comma delimited)' on an Arabic Windows (Windows-1256): save " +
          "it as 'CSV UTF-8', or pass --encoding windows-1256."
        : 'It looks like it was saved in Windows-1256 (Arabic Windows): save it as UTF-8, or pass --encoding windows-1256.',
    };
  }
  if (found.likely === 'single-byte') {
    return {
      problem,
      hint:
        `It looks like it was saved in a single-byte code page rather than UTF-8: save it as ${sheet ? "'CSV UTF-8'" : 'UTF-8'}, ` +
        `or name its encoding with --encoding (${encodingNames.join(', ')}).`,
    };
  }
  return {
    problem,
    hint: `Save it as UTF-8, or name the encoding it was saved in with --encoding (${encodingNames.join(', ')}).`,
  };
}

/** A word of the input as a message quotes it: what cannot be seen, or was no character (U+FFFD), shown escaped. */
function shownWord(word: string): string {
  const shown = quotedVisibly(word);
  if (!word.includes('\uFFFD')) return shown;
  return `"${(shown === word ? word : shown.slice(1, -1)).replaceAll('\uFFFD', '\\uFFFD')}"`;
}

/** The refusal of Arabic Windows-1256 read as ISO-8859-6: the first word that shows it, as each reads it. */
function misreadMessage(
  found: UndecodableBytes,
  misread: NonNullable<UndecodableBytes['misread']>,
  name: string,
  sheet: boolean,
): { problem: string; hint: string } {
  const words = `${shownWord(misread.likely)} in Windows-1256, ${shownWord(misread.read)} in ISO-8859-6`;
  const saved = sheet ? "'CSV UTF-8'" : 'UTF-8';
  if (!misread.proven) {
    return {
      problem:
        `${name} may be Windows-1256 text rather than ISO-8859-6: its Arabic reads as words in both, in other ` +
        `letters (line ${found.line}: ${words}), and no word of it is Arabic in ISO-8859-6 alone`,
      hint:
        `Arabic ${sheet ? 'Excel' : 'Windows'} writes Windows-1256: pass --encoding windows-1256 if the first reads ` +
        `right; else save it as ${saved}, which is read without --encoding.`,
    };
  }
  return {
    problem: `${name} is Windows-1256 text, not ISO-8859-6: read as ISO-8859-6, line ${found.line} would become other letters (${words})`,
    hint: sheet
      ? "Arabic Excel writes Windows-1256 ('CSV (Comma delimited)' on an Arabic Windows): pass --encoding " +
        "windows-1256, or save it as 'CSV UTF-8'."
      : 'Arabic Windows writes Windows-1256: pass --encoding windows-1256, or save it as UTF-8.',
  };
}

/**
 * What the problems listed with the refusal of an input read in the wrong encoding are: those of its header and of
 * its records (how many of each) read in the encoding it most likely is in, listed after where its bytes landed as
 * read (`afterLanded`).
 */
export function secondLookWords(encoding: EncodingName, header: number, records: number, afterLanded: boolean): string {
  const read = `Read as ${shown(encoding)}`;
  if (header === 0 && records === 0) return `${read}, every record is valid.`;
  const whose =
    header > 0 && records > 0 ? 'its header and records have' : header > 0 ? 'its header has' : 'its records have';
  return `${read}, ${whose} the ${afterLanded ? 'other problems listed' : 'problems above'}: correct them too.`;
}
