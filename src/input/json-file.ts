import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { buffer } from 'node:stream/consumers';
import type { CommandContext } from '../context.js';
import { UsageError, type FieldIssue } from '../errors.js';
import { parseJsonExactly } from '../schemas/exact-json.js';
import { decodeWhole, type EncodingName, type UndecodableBytes } from './text-encoding.js';
import { undecodableMessage } from './encoding-messages.js';

/**
 * Reads a JSON document from a file, or from stdin when the path is `-`, in `encoding` (else as its bytes say);
 * errors name the flag and the file.
 */
export async function readJsonInput(
  path: string,
  context: CommandContext,
  flag = '--file',
  encoding?: EncodingName,
): Promise<unknown> {
  const source = path === '-' ? 'stdin' : path;
  let content: Buffer;
  try {
    content = path === '-' ? await buffer(context.stdin) : await readFile(resolve(context.cwd, path));
  } catch (error) {
    throw new UsageError(`Cannot read ${flag} ${source}: ${fileProblem(error)}.`);
  }
  const { text: json, undecodable } = decodeWhole(content, encoding);
  let value: unknown;
  try {
    value = parseJsonExactly(json);
  } catch (error) {
    if (undecodable) throw undecodableInputError(undecodable, `${flag} ${source}`);
    throw new UsageError(`${flag} ${source} is not valid JSON: ${jsonProblem(json, (error as Error).message)}.`);
  }
  if (undecodable) throw undecodableInputError(undecodable, `${flag} ${source}`, value);
  return withoutSchemaKey(value);
}

/**
 * The refusal of a JSON input with bytes that are not text in its encoding: where they are, each field they landed
 * in (when the JSON could be read), the likely cause and the way out. Nothing is sent.
 */
export function undecodableInputError(found: UndecodableBytes, name: string, value?: unknown): UsageError {
  const { problem, hint } = undecodableMessage(found, name, false);
  const issues: FieldIssue[] = fieldsHolding(value, '\uFFFD').map((path) => ({
    path,
    message: 'holds bytes that could not be read as text (shown as \uFFFD)',
  }));
  return new UsageError(`${problem}; nothing was sent.`, { issues, hint });
}

/** The paths of the text fields of `value` that hold `needle`: `customer.name`, `items[1].nameAr`. */
function fieldsHolding(value: unknown, needle: string, path = ''): string[] {
  if (typeof value === 'string') return value.includes(needle) ? [path || '(value)'] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => fieldsHolding(item, needle, `${path}[${index}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) =>
      fieldsHolding(item, needle, path === '' ? key : `${path}.${key}`),
    );
  }
  return [];
}

/** Why a file cannot be written, in words: a missing folder is named as such (ENOENT, when writing). */
export function writeProblem(error: unknown): string {
  return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'its folder does not exist' : fileProblem(error);
}

/** Why a file could not be read, in words: "it is a folder" rather than "EISDIR: illegal operation ...". */
export function fileProblem(error: unknown): string {
  const reasons: Record<string, string> = {
    ENOENT: 'no such file',
    EISDIR: 'it is a folder, not a file',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
  };
  return reasons[(error as NodeJS.ErrnoException).code ?? ''] ?? (error as Error).message;
}

/**
 * JSON.parse's message, on one line, with a line and column where it gives a position: "Expected ',' or '}' after
 * property value in JSON at line 3, column 7".
 */
export function jsonProblem(text: string, message: string): string {
  const where = (position: number) => {
    const before = text.slice(0, position).split('\n');
    return `line ${before.length}, column ${(before.at(-1) ?? '').length + 1}`;
  };
  // Newer V8 (Node 24) adds its own " (line 3 column 7)" after the position: the place is said once, in our words.
  const located = message
    .replace(/ \(line \d+ column \d+\)$/, '')
    // V8 says it twice: `Unexpected token 'o', "not json" is not valid JSON`, after our own "is not valid JSON".
    .replace(/, "((?:[^"\\]|\\.)*)"(\.\.\.)? is not valid JSON$/, ' in "$1$2"')
    .replace(/at position (\d+)/, (_match, position: string) => `at ${where(Number(position))}`);
  const ended = /end of JSON input/.test(located)
    ? `${located} (the text ends at ${where(text.trimEnd().length)})`
    : located;
  // The message quotes a piece of the input, which may hold line breaks.
  return ended.replace(/\r?\n/g, '\\n');
}

/**
 * Drops the top-level `$schema` an invoice or refund file may carry to name its JSON Schema for the editor
 * (`einvoice schema single`): it is for the editor, not a field of the request. Only text is dropped, as the schema
 * allows only text there; anything else stays and is reported as an unknown field.
 */
export function withoutSchemaKey(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const { $schema, ...rest } = value as Record<string, unknown>;
  return typeof $schema === 'string' ? rest : value;
}

/** Requires a JSON object (not an array or a value). */
export function asObject(value: unknown, what: string): Record<string, unknown> {
  if (Array.isArray(value) && value.length === 0) {
    throw new UsageError(`${what} holds an empty list: there is no invoice to create; nothing was sent.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${what} must hold one JSON object.`);
  }
  return value as Record<string, unknown>;
}
