import { quote } from 'shell-quote';
import type { FieldIssue } from '../errors.js';
import type { Invoice, InvoiceKind } from '../schemas/invoice.js';
import { withDateForms } from './dates.js';
import { fieldsOf, invoiceFields, optionName, valueFromText, type InvoiceFlags } from './field-descriptions.js';
import { formatItemSpec, parseItemSpec } from './item-spec.js';

export type { InvoiceFlags } from './field-descriptions.js';

/** Names the flag of a field path in messages: `customer.name (--customer-name)`. */
export function withFlagName(issue: FieldIssue): FieldIssue {
  if (issue.path === 'discount') return { ...issue, path: 'discount (--discount-value, --discount-type)' };
  // A missing customer is one issue at `customer`; it still has to say which flags give it.
  if (issue.path === 'customer') return { ...issue, path: 'customer (--customer-name, --customer-mobile)' };
  const entry = invoiceFields.find(
    (field) => issue.path === field.path || (field.input === 'items' && issue.path.startsWith(`${field.path}[`)),
  );
  const { message } = withDateForms(issue);
  return entry ? { path: `${issue.path} (${entry.flag})`, message } : { ...issue, message };
}

/** True when the field at `path` (`customer.name`, `items[0].price`) was given by a flag. */
export function setByFlag(path: string, flags: Record<string, unknown>): boolean {
  const [top = '', nested] = path.split(/[.[]/);
  const value = flags[top];
  if (value === undefined) return false;
  if ((top === 'customer' || top === 'discount') && nested !== undefined) {
    return (value as Record<string, unknown>)[nested] !== undefined;
  }
  return true;
}

/**
 * Names an issue by where its value came from: the flag when a flag gave it, the field alone when a file or the
 * profile did (never "--customer-name" for a name in the file); a missing field names the flag that would give it.
 */
export function withSourceName(
  issue: FieldIssue,
  sources: { flags: Record<string, unknown>; file?: Record<string, unknown> },
): FieldIssue {
  if (setByFlag(issue.path, sources.flags) || !inFile(issue.path, sources.file)) return withFlagName(issue);
  return withDateForms(issue);
}

/** True when `file` holds a value at `path` or at the object or list that holds it. */
function inFile(path: string, file: Record<string, unknown> | undefined): boolean {
  if (!file) return false;
  const [top = '', nested] = path.split(/[.[]/);
  const value = file[top];
  if (value === undefined) return false;
  if ((top === 'customer' || top === 'discount') && nested !== undefined && typeof value === 'object' && value) {
    return (value as Record<string, unknown>)[nested] !== undefined;
  }
  return true;
}

/** Sets the value at a dotted path of `target`, making the objects on the way. */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop() as string;
  let node = target;
  for (const key of keys) {
    const child = node[key];
    node = node[key] = typeof child === 'object' && child !== null ? { ...(child as object) } : {};
  }
  node[last] = value;
}

/** The value at a dotted path of `source`. */
function valueAt(source: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], source);
}

/**
 * Turns the flags into a partial request of the wire shape. Values stay as typed where they are not plainly
 * numbers, so the schema reports them; a malformed --item is reported here, with its position.
 */
export function invoiceFromFlags(flags: InvoiceFlags): { invoice: Record<string, unknown>; issues: FieldIssue[] } {
  const invoice: Record<string, unknown> = {};
  const issues: FieldIssue[] = [];
  const given = flags as Record<string, unknown>;
  for (const field of invoiceFields) {
    const value = given[optionName(field.flag)];
    if (value === undefined) continue;
    if (field.input === 'items') {
      const specs = value as string[];
      if (specs.length === 0) continue;
      setPath(
        invoice,
        field.path,
        specs.map((spec, position) => {
          const parsed = parseItemSpec(spec, position);
          issues.push(...parsed.issues);
          return parsed.item;
        }),
      );
    } else {
      setPath(invoice, field.path, typeof value === 'string' ? valueFromText(field, value) : value);
    }
  }
  return { invoice, issues };
}

/** The flag-only command line that creates `invoice` again (for --print-command), quoted for a POSIX shell. */
export function toCommandLine(kind: InvoiceKind, invoice: Invoice, environment?: string): string {
  const args = ['einvoice', 'create', kind];
  if (environment) args.push('--env', environment);
  for (const field of fieldsOf(kind)) {
    const value = valueAt(invoice, field.path);
    if (value === undefined) continue;
    if (field.input === 'items') {
      for (const item of value as Parameters<typeof formatItemSpec>[0][]) args.push(field.flag, formatItemSpec(item));
    } else if (field.input === 'yes-no') {
      args.push(value === true ? field.flag : `--no-${field.flag.slice(2)}`);
    } else {
      args.push(field.flag, String(value));
    }
  }
  return quote(args);
}
