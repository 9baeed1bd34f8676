import type { FieldIssue } from '../errors.js';
import type { RecordFinding } from '../sheet/index.js';
import { formatCount } from './format.js';

// The problems and warnings of a file's records as a person reads them: the same cause on many records is one line
// naming the records (an unknown date format on 300 rows is not 900 lines), each beside its own figure where the
// cause leaves one out (the amount and the items' total that differ); a cause of one record keeps its words.

/** How many records a grouped line names before "and N more". */
const namedRanges = 10;

/** A record a grouped line names: where it is, and its own figure, if the cause leaves one out. */
interface Named {
  where: string;
  figure?: string;
}

/** The findings with the same cause (or the same field and message) told once, in order of first appearance. */
export function groupedFindings(findings: Iterable<RecordFinding>): FieldIssue[] {
  const groups = new Map<string, { first: RecordFinding; fields: string[]; named: Named[]; count: number }>();
  for (const finding of findings) {
    const key =
      finding.cause === undefined
        ? `message\u0000${finding.field ?? ''}\u0000${finding.message}`
        : `cause\u0000${finding.cause}`;
    const named = { where: finding.where, figure: finding.figure };
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { first: finding, fields: [finding.field ?? ''], named: [named], count: 1 });
      continue;
    }
    group.count += 1;
    if (!group.fields.includes(finding.field ?? '')) group.fields.push(finding.field ?? '');
    const last = group.named.at(-1);
    if (last?.where !== finding.where) group.named.push(named);
    else if (finding.figure !== undefined && last.figure !== finding.figure) {
      // Two findings of one record under one cause (two dates): its figures side by side.
      last.figure = last.figure === undefined ? finding.figure : `${last.figure}; ${finding.figure}`;
    }
  }
  return [...groups.values()].map(({ first, fields, named, count }) => {
    if (count === 1) return { path: first.path, message: first.message };
    const shown = fields.filter((field) => field !== '').join(', ');
    const places = named.some((record) => record.figure !== undefined) ? withFigures(named) : placesOf(named);
    return { path: shown === '' ? places : `${places}: ${shown}`, message: first.cause ?? first.message };
  });
}

/** `rows 2-301`, `records 3, 7 and 9`: the records of a group, numbers in ranges, or their names as given. */
export function placesOf(records: readonly Named[]): string {
  const wheres = records.map((record) => record.where);
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

/** `records 1 (150.00 ≠ 140.00), 3 (300.00 ≠ 281.10)`: each record with its figure, the first `namedRanges` of them. */
function withFigures(records: readonly Named[]): string {
  const parsed = records.map(({ where }) => /^(row|record) (\d+)\b/.exec(where));
  const noun = parsed[0]?.[1];
  const sameNoun = noun !== undefined && parsed.every((match) => match?.[1] === noun);
  const shown = records.slice(0, namedRanges).map(({ where, figure }, index) => {
    const name = sameNoun ? (parsed[index]?.[2] as string) : where;
    return figure === undefined ? name : `${name} (${figure})`;
  });
  const more = records.length > namedRanges ? ` and ${formatCount(records.length - namedRanges)} more` : '';
  return `${sameNoun ? `${noun}s ` : ''}${shown.join(', ')}${more}`;
}
