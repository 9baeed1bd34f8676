// The known name a mistyped one was probably meant to be ("singel" -> "single"), for "Did you mean ...?".

/** The candidate nearest to `name` (case aside), when it is near enough to be a slip; else undefined. */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const typed = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(typed.length / 3)) ? best.name : undefined;
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
