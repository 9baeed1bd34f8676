import { z } from 'zod';
import { utcInstant } from './calendar.js';
import { invoiceNumber, sendableString } from './fields.js';
import type { FieldIssue } from '../errors.js';
import { formatPath, validate } from './validate.js';

// A line of a bulk run's journal read as input from outside (`einvoice invoices import`: a CI artifact, another
// machine's file): its shape, its invoice numbers, and text without control characters anywhere but in an error,
// which einvoice wrote and shows escaped. The engine reading its own journal trusts it; an import checks every line.

const text = () => sendableString().min(1, { error: 'must not be empty' });
/** An error einvoice wrote (or the service answered): any text, shown escaped wherever it is printed. */
const errorText = () => z.string({ error: 'must be text' });
const whole = () => z.int({ error: 'must be a whole number' }).min(1, { error: 'must be 1 or more' });
/** The merchant's word on a record, as a run journals it. */
const marked = () => ({ marked: z.literal(true).optional(), at: utcInstant().optional() });

/** The schema of each entry, made when a journal is first checked: a run that imports none never builds them. */
const entrySchemas = () =>
  [
    z.object({
      type: z.literal('run'),
      version: z.int({ error: 'must be a whole number' }),
      at: utcInstant(),
      resolveDatesAt: utcInstant(),
      kind: z.enum(['single', 'recurring', 'refund'], { error: 'must be single, recurring or refund' }),
      input: text(),
      shard: text().optional(),
      environment: text(),
      service: text(),
    }),
    z.object({
      type: z.literal('planned'),
      key: text(),
      record: whole(),
      line: whole().optional(),
      businessReference: text().optional(),
      body: z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }),
    }),
    z.object({ type: z.literal('sent'), key: text(), at: utcInstant() }),
    z.object({
      type: z.literal('created'),
      key: text(),
      invoiceNumber: invoiceNumber().optional(),
      alreadyExisted: z.boolean({ error: 'must be true or false' }).optional(),
      sandboxState: text().optional(),
      ...marked(),
    }),
    z.object({
      type: z.literal('failed'),
      key: text(),
      error: errorText(),
      status: z.int({ error: 'must be a whole number' }).optional(),
      code: errorText().optional(),
      ...marked(),
    }),
    z.object({ type: z.literal('uncertain'), key: text(), error: errorText() }),
  ] as const;

let byType: Map<string, z.ZodType> | undefined;

/** A journal line as checked: one of the journal's entries. */
export type CheckedJournalEntry = z.infer<ReturnType<typeof entrySchemas>[number]>;

/** The checks of a request's body beyond its shape: no control characters in any of its texts. */
let bodyText: z.ZodType<string> | undefined;

/**
 * A journal line, parsed and checked: the entry, or every problem found in it, each with the path of its field
 * (`body.customer.name`, `invoiceNumber`).
 */
export function checkJournalLine(line: string): { entry: CheckedJournalEntry } | { issues: FieldIssue[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { issues: [{ path: 'line', message: 'is not a journal entry: it is not JSON' }] };
  }
  byType ??= new Map(entrySchemas().map((schema) => [schema.shape.type.value, schema]));
  const type = (parsed as { type?: unknown } | null)?.type;
  const schema = typeof type === 'string' ? byType.get(type) : undefined;
  if (!schema) {
    return { issues: [{ path: 'type', message: `is not a journal entry's type (${[...byType.keys()].join(', ')})` }] };
  }
  const result = validate(schema, parsed);
  if (!result.success) return { issues: result.issues };
  const entry = result.data as CheckedJournalEntry;
  if (entry.type === 'planned') {
    const issues = textIssues(entry.body, ['body']);
    if (issues.length > 0) return { issues };
  }
  return { entry };
}

/** The problems of the texts in `value` (an object, a list, a text) and of its fields' names, each at its path. */
function textIssues(value: unknown, path: PropertyKey[]): FieldIssue[] {
  if (typeof value === 'string') {
    const result = validate((bodyText ??= sendableString()), value);
    return result.success ? [] : result.issues.map((issue) => ({ ...issue, path: formatPath(path) }));
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => textIssues(item, [...path, index]));
  if (typeof value === 'object' && value !== null) {
    // A field's name is shown with what cannot be seen in it (formatPath), so only its value is checked.
    return Object.entries(value).flatMap(([key, item]) => textIssues(item, [...path, key]));
  }
  return [];
}
