// A customer's message in Arabic keeps its dates, amounts and numbers whole only when each reads in a direction of
// its own: between Arabic words, the parts of 2026-05-12 are laid out right to left around its hyphens (12-05-2026).
// For output only (the terminal, the dashboard): the schemas refuse these isolates in anything sent.

/** A letter of a script written right to left. */
const rightToLeft = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;

/**
 * A number with the separators inside it (a date, an amount, a time, a mobile with its +), which reads left to right
 * inside such text; or a link, whose Latin letters keep it whole already (and whose digits are no number of their own).
 */
const numberOrLink = /(?<link>https?:\/\/\S+)|\+?\d+(?:[-.,:/]\d+)*/g;

/** A piece of text, and whether it reads left to right within the text around it. */
export interface DirectionRun {
  text: string;
  ltr: boolean;
}

/** `text` in runs, each number a left-to-right run of its own; one run when no letter is right to left. */
export function directionRuns(text: string): DirectionRun[] {
  if (!rightToLeft.test(text)) return [{ text, ltr: false }];
  const runs: DirectionRun[] = [];
  let at = 0;
  for (const match of text.matchAll(numberOrLink)) {
    if (match.groups?.link !== undefined) continue;
    if (match.index > at) runs.push({ text: text.slice(at, match.index), ltr: false });
    runs.push({ text: match[0], ltr: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) runs.push({ text: text.slice(at), ltr: false });
  return runs;
}

/** `text` with each left-to-right run of right-to-left text between LRI (U+2066) and PDI (U+2069), for a terminal. */
export function withIsolatedRuns(text: string): string {
  return directionRuns(text)
    .map((run) => (run.ltr ? `\u2066${run.text}\u2069` : run.text))
    .join('');
}
