// Text a merchant gave, quoted back in a message, with what cannot be seen shown: a zero-width space after a CSV
// header, or an escape sequence in a JSON key, would otherwise make "amount" is not an invoice field; did you mean
// amount?" read as false (the terminal sanitiser removes control characters, and invisible ones stay invisible).

/** Control characters, and the invisible ones: soft hyphen, zero-width and joiner characters, bidi marks, BOM. */
// eslint-disable-next-line no-control-regex -- control characters are what this pattern shows
const unseen = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** `text` with every control or invisible character written as `\u200B`; other text unchanged. */
export function visible(text: string): string {
  return text.replace(unseen, (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/** `text` as it is when all of it can be seen, else in quotes with each unseen character written as `\u200B`. */
export function quotedVisibly(text: string): string {
  const shown = visible(text);
  return shown === text ? text : `"${shown}"`;
}
