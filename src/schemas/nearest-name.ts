// The known name a mistyped one was probably meant to be ("singel" -> "single"), for "Did you mean ...?".

/** The candidate nearest to `name` (case aside), when it is near enough to be a slip; else undefined. */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const typed = name.toLowerCase();
  const list = [...candidates];
  // A short name that is the last part of a longer one ("name" for customer.name) before any a few letters away
  // ("note"): the merchant wrote the field's own name, only without its object.
  const lastPart = typed.length >= 3 ? list.find((candidate) => lastPartOf(candidate) === typed) : undefined;
  if (lastPart && typed !== lastPart.toLowerCase()) return lastPart;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of list) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  const near = Math.max(2, Math.floor(typed.length / 3));
  if (best && best.distance <= near) return best.name;
  // A slip in a field's own name written without its object ("emial" for customer.email).
  if (typed.length >= 3) {
    let part: { name: string; distance: number } | undefined;
    for (const candidate of list) {
      const distance = editDistance(typed, lastPartOf(candidate) ?? '');
      if (!part || distance < part.distance) part = { name: candidate, distance };
    }
    if (part && part.distance <= near) return part.name;
  }
  return namedWord(typed, list);
}

/** The last of a name's dotted or dashed parts, in lower case: "mobile" for customer.mobile. */
function lastPartOf(candidate: string): string | undefined {
  return candidate
    .toLowerCase()
    .split(/[.\-\]]/)
    .at(-1);
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
