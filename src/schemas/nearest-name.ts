// The known name a mistyped one was probably meant to be ("singel" -> "single"), for "Did you mean ...?".

/** The candidate nearest to `name` (case aside), when it is near enough to be a slip; else undefined. */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const typed = name.toLowerCase();
  const list = [...candidates];
  const near = Math.max(2, Math.floor(typed.length / 3));
  const whole = closest(typed, list, (candidate) => candidate.toLowerCase());
  // Matched against the last part of each name too: a field's own name written without its object ("name" for
  // customer.name, before "note" a few letters away; "emial" for customer.email). Under three letters is too short.
  const part = typed.length >= 3 ? closest(typed, list, lastPartOf) : undefined;
  if (part?.distance === 0) return part.name;
  if (whole && whole.distance <= near) return whole.name;
  if (part && part.distance <= near) return part.name;
  return namedWord(typed, list) ?? shortenedName(typed, list);
}

/**
 * The candidate that begins with `typed`, a name cut short ("orderReference" for orderReferenceNumber), when no
 * other holds it. Under five letters is too short to tell.
 */
function shortenedName(typed: string, candidates: readonly string[]): string | undefined {
  if (typed.length < 5) return undefined;
  const holding = candidates.filter((candidate) => candidate.toLowerCase().includes(typed));
  return holding.length === 1 && holding[0]?.toLowerCase().startsWith(typed) ? holding[0] : undefined;
}

/** The first candidate whose `view` is fewest edits from `typed`, with that distance. */
function closest(
  typed: string,
  candidates: readonly string[],
  view: (candidate: string) => string,
): { name: string; distance: number } | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(typed, view(candidate));
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  return best;
}

/** The last of a name's dotted or dashed parts, in lower case: "mobile" for customer.mobile. */
function lastPartOf(candidate: string): string {
  return (
    candidate
      .toLowerCase()
      .split(/[.\-\]]/)
      .at(-1) ?? ''
  );
}

/**
 * The candidate that has `typed` as one word of its camel case ("code" for itemCode), when no other candidate has
 * that word. Names under three letters are too short to tell.
 */
function namedWord(typed: string, candidates: readonly string[]): string | undefined {
  if (typed.length < 3) return undefined;
  const words = candidates.filter((candidate) =>
    candidate.split(/[.\-[\]]|(?=[A-Z])/).some((word) => word.toLowerCase() === typed),
  );
  return words.length === 1 ? words[0] : undefined;
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}
