import * as z from 'zod';
import type { FieldIssue } from '../errors.js';
import { nearestName } from './nearest-name.js';
import { quotedVisibly } from './visible-text.js';

export type ValidationResult<T> = { success: true; data: T } | { success: false; issues: FieldIssue[] };

/** Writes a field path the way a merchant reads it: `items[2].price`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    // A key with a character no one can see (`"e\u001B[2Jmail"` in a file) is shown with it, quoted.
    const shown = quotedVisibly(String(key));
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? shown : `.${shown}`;
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

/**
 * Turns a zod error into one issue per field; an unknown key becomes an issue at that key's path, with the known key
 * of the same object it was most likely meant to be (`customer.emial: is not a known field; did you mean email?`)
 * when `schema` is the one that made the error.
 */
export function toFieldIssues(error: z.ZodError, schema?: z.ZodType): FieldIssue[] {
  /** The fields a misspelt key was meant to be: their own "is required" would only say the same again. */
  const meantFields = new Set<string>();
  const issues = error.issues.flatMap((issue) => {
    if (issue.code !== 'unrecognized_keys') return [{ path: formatPath(issue.path), message: issue.message }];
    const known = schema ? keysAt(schema, issue.path) : [];
    return issue.keys.map((key) => {
      const meant = nearestName(key, known);
      if (meant) meantFields.add(formatPath([...issue.path, meant]));
      return {
        path: formatPath([...issue.path, key]),
        message: `is not a known field${meant ? `; did you mean ${meant}?` : ''}`,
      };
    });
  });
  return issues.filter((issue) => !(issue.message === 'is required' && meantFields.has(issue.path)));
}

/** The internals zod gives every schema: what kind it is, and the schemas it is made of. */
interface SchemaDefinition {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  /** A record's (a map by any key): the schema of each value. */
  valueType?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}

/** The schemas that may hold the value at `path` of what `schema` parses (more than one through a union). */
function schemasAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): z.ZodType[] {
  const def = (schema as unknown as { _zod: { def: SchemaDefinition } })._zod.def;
  const inner = def.innerType ?? def.in ?? def.getter?.();
  if (inner) return schemasAt(inner, path);
  const parts = def.options ?? (def.left && def.right ? [def.left, def.right] : undefined);
  if (parts) return parts.flatMap((part) => schemasAt(part, path));
  if (path.length === 0) return [schema];
  const [key, ...rest] = path;
  const child =
    typeof key === 'number' ? def.element : typeof key === 'string' ? (def.shape?.[key] ?? def.valueType) : undefined;
  return child ? schemasAt(child, rest) : [];
}

/** The keys an object at `path` of what `schema` parses may have. */
function keysAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  return schemasAt(schema, path).flatMap((found) =>
    Object.keys((found as unknown as { _zod: { def: SchemaDefinition } })._zod.def.shape ?? {}),
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
    : { success: false, issues: toFieldIssues(result.error, schema) };
}
