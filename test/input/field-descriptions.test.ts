import { PassThrough } from 'node:stream';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { commandTree } from '../../src/commands/completion/run.js';
import type { CommandContext } from '../../src/context.js';
import {
  fieldByFlagName,
  fieldByPath,
  fieldsOf,
  invoiceFields,
  valueFromText,
} from '../../src/input/field-descriptions.js';
import { promptedPaths } from '../../src/input/invoice-prompts.js';
import { buildProgram } from '../../src/program.js';
import { invoiceKinds, invoiceSchemas, type InvoiceKind } from '../../src/schemas/index.js';

// Every field of the request schemas is described exactly once, and everything a merchant gives fields through
// (flags, prompts, completion) is generated from those descriptions, so the lists cannot drift apart.

/** The leaf fields of a request schema as dotted paths; objects are walked, fields of the other kind left out. */
function schemaFieldPaths(schema: z.ZodType, prefix = ''): string[] {
  let node = schema;
  while (node instanceof z.ZodOptional) node = node.unwrap() as z.ZodType;
  if (!(node instanceof z.ZodObject)) return [prefix];
  return Object.entries(node.shape as Record<string, z.ZodType>).flatMap(([key, child]) => {
    // A field of the other kind is `never`: present at all, it is refused.
    const inner = child instanceof z.ZodOptional ? child.unwrap() : child;
    if (inner instanceof z.ZodNever) return [];
    return schemaFieldPaths(child, prefix ? `${prefix}.${key}` : key);
  });
}

const context = (): CommandContext => ({
  stdin: new PassThrough(),
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  env: {},
  cwd: process.cwd(),
});

/** The visible flags of `einvoice create <kind>` as completion lists them. */
function completedFlags(kind: InvoiceKind): string[] {
  const node = commandTree(buildProgram(context())).find((each) => each.path === `create ${kind}`);
  return node?.ownFlags.map((flag) => flag.long) ?? [];
}

/** The visible options of `einvoice create <kind>` as commander declares them. */
function declaredFlags(kind: InvoiceKind): string[] {
  const create = buildProgram(context()).commands.find((each) => each.name() === 'create');
  const command = create?.commands.find((each) => each.name() === kind);
  return command?.options.filter((option) => !option.hidden).map((option) => option.long ?? '') ?? [];
}

describe.each(invoiceKinds)('the fields of a %s invoice', (kind) => {
  const described = fieldsOf(kind).map((field) => field.path);

  it('each field of the schema has exactly one description, and each description one field', () => {
    const fields = schemaFieldPaths(invoiceSchemas[kind]);
    expect(fields.length).toBeGreaterThan(10);
    expect([...described].sort()).toEqual([...fields].sort());
    expect(new Set(described).size).toBe(described.length);
  });

  it('options, prompts and completion list the same fields', () => {
    const flags = fieldsOf(kind).map((field) => field.flag);
    expect(declaredFlags(kind).filter((flag) => fieldByFlagName(flag))).toEqual(flags);
    expect(completedFlags(kind).filter((flag) => fieldByFlagName(flag))).toEqual(flags);
    expect([...promptedPaths(kind)].sort()).toEqual([...described].sort());
  });

  it('completion offers the values each description lists', () => {
    const node = commandTree(buildProgram(context())).find((each) => each.path === `create ${kind}`);
    for (const field of fieldsOf(kind)) {
      const flag = node?.ownFlags.find((each) => each.long === field.flag);
      expect(flag?.values, field.flag).toEqual(field.values ?? field.suggestions);
    }
    // The lists themselves, written out: the line above compares completion with the same table it is made from.
    const valuesOf = (long: string) => node?.ownFlags.find((each) => each.long === long)?.values;
    expect(valuesOf('--payment-type')).toEqual(
      kind === 'single' ? ['PUSH_TO_CUSTOMER', 'PUSH_TO_SERVICE_PAY'] : undefined,
    );
    expect(valuesOf('--preferred-payment-method')).toEqual(['PayAtService', 'CARD', 'VALU']);
    expect(valuesOf('--method')).toEqual(['SMS', 'EMAIL', 'BOTH', 'NONE']);
  });
});

describe('the field lookups', () => {
  it('finds a field by its dotted path and by its flag name, with or without the dashes', () => {
    expect(fieldByPath('customer.name')?.flag).toBe('--customer-name');
    expect(fieldByPath('discount.type')?.values).toEqual(['FLAT', 'PERCENTAGE']);
    expect(fieldByFlagName('--method')?.path).toBe('communicationMethod');
    expect(fieldByFlagName('lang')?.path).toBe('communicationLang');
    expect(fieldByPath('customer')).toBeUndefined();
    expect(fieldByFlagName('--file')).toBeUndefined();
  });

  it('each flag and each path names one field', () => {
    const flags = invoiceFields.map((field) => field.flag);
    const paths = invoiceFields.map((field) => field.path);
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('reads a number exactly from its digits and leaves other text as typed', () => {
    const amount = fieldByPath('amount');
    const note = fieldByPath('note');
    if (!amount || !note) throw new Error('amount and note are described');
    expect(valueFromText(amount, '12.50')).toBe(12.5);
    expect(valueFromText(amount, 'twelve')).toBe('twelve');
    expect(valueFromText(note, '42')).toBe('42');
  });
});
