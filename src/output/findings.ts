import type { FieldIssue } from '../errors.js';
import type { RecordFinding } from '../sheet/index.js';
import { formatCount } from './format.js';

// The problems and warnings of a file's records as a person reads them: the same cause on many records is one line
// naming the records (an unknown date format on 300 rows is not 900 lines); a cause of one record keeps its words.

/** How many records a grouped line names before "and N more". */
const namedRanges = 10;

/** The findings with the same cause (or the same field and message) told once, in order of first appearance. */
export function groupedFindings(findings: Iterable<RecordFinding>): FieldIssue[] {
  const groups = new Map<string, { first: RecordFinding; fields: string[]; wheres: string[]; count: number }>();
  for (const finding of findings) {
    const key =
      finding.cause === undefined
        ? `message\u0000${finding.field ?? ''}\u0000${finding.message}`
        : `cause\u0000${finding.cause}`;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { first: finding, fields: [finding.field ?? ''], wheres: [finding.where], count: 1 });
      continue;
    }
    group.count += 1;
    if (!group.fields.includes(finding.field ?? '')) group.fields.push(finding.field ?? '');
    if (group.wheres.at(-1) !== finding.where) group.wheres.push(finding.where);
  }
  return [...groups.values()].map(({ first, fields, wheres, count }) => {
    if (count === 1) return { path: first.path, message: first.message };
    const named = fields.filter((field) => field !== '').join(', ');
    return {
      path: named === '' ? placesOf(wheres) : `${placesOf(wheres)}: ${named}`,
      message: first.cause ?? first.message,
    };
  });
}

/** `rows 2-301`, `records 3, 7 and 9`: the records of a group, numbers in ranges, or their names as given. */
export function placesOf(wheres: readonly string[]): string {
  const parsed = wheres.map((where) => /^(row|record) (\d+)\b/.exec(where));
  const noun = parsed[0]?.[1];
  if (wheres.length === 1 || !noun || parsed.some((match) => match?.[1] !== noun)) {
    const shown = wheres.slice(0, namedRanges).join(', ');
    return wheres.length > namedRanges ? `${shown} and ${formatCount(wheres.length - namedRanges)} more` : shown;
  }
  const ranges: Array<[number, number]> = [];
  for (const match of parsed) {
    const number = Number(match?.[2]);
    const last = ranges.at(-1);
    if (last && number === last[1] + 1) last[1] = number;
    else ranges.push([number, number]);
  }
  const text = ranges
    .slice(0, namedRanges)
    .map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`))
    .join(', ');
  const more = ranges.slice(namedRanges).reduce((sum, [from, to]) => sum + to - from + 1, 0);
  return `${noun}s ${text}${more > 0 ? ` and ${formatCount(more)} more` : ''}`;
}
