import * as z from 'zod';
import type { FieldIssue } from '../errors.js';

export type ValidationResult<T> = { success: true; data: T } | { success: false; issues: FieldIssue[] };

/** Writes a field path the way a merchant reads it: `items[2].price`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out || '(request)';
}

/** How a merchant reads each JSON type in "must be ...". */
const typeNames: Readonly<Record<string, string>> = {
  object: 'an object',
  array: 'a list',
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
};

/** Messages for the issues no field rule words itself (a missing object, a wrong type). */
function fallbackMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_type') {
    return issue.input === undefined ? 'is required' : `must be ${typeNames[issue.expected] ?? issue.expected}`;
  }
  return undefined;
}

/** Turns a zod error into one issue per field; an unknown key becomes an issue at that key's path. */
export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: 'is not a known field' }))
      : [{ path: formatPath(issue.path), message: issue.message }],
  );
}

/**
 * Validates `input` against `schema`, returning the parsed value or every field issue. Without zod's generated
 * parser (`jitless`): generating it costs more than it saves on the few values a command checks; the many records of
 * a bulk run have their own compiled parser (invoice-fast-path.ts).
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): ValidationResult<z.output<S>> {
  const result = schema.safeParse(input, { error: fallbackMessage, jitless: true });
  return result.success
    ? { success: true, data: result.data }
    : { success: false, issues: toFieldIssues(result.error) };
}
