import { describe, expect, test } from 'vitest';
import { withoutSchemaKey } from '../../src/input/json-file.js';
import {
  configSchema,
  recurringInvoiceSchema,
  refundSchema,
  singleInvoiceSchema,
  validate,
} from '../../src/schemas/index.js';
import { jsonSchemaNames, jsonSchemaOf, type JsonSchemaName } from '../../src/schemas/json-schema.js';
import { ajvExactBelow, editorValidator, newAjv } from '../helpers/json-schema-validators.js';
import { corpus, withField } from './json-schema-corpus.js';
import { recurringInvoice, singleInvoice } from './fixtures.js';

// The JSON Schema `einvoice schema NAME` prints and the zod schema einvoice validates with must never disagree:
// every payload of the corpus, and 500 generated values of each of six fields, get the same verdict from
// einvoice, from VS Code's own JSON language service (as the editor checks a file naming the schema) and from ajv
// (draft 2020-12, strict, with ajv-formats, as a CI script would check a file).

const zodSchemas = {
  single: singleInvoiceSchema,
  recurring: recurringInvoiceSchema,
  refund: refundSchema,
  config: configSchema,
};

/** einvoice's verdict on a file: invoice and refund files lose a top-level `$schema` as they are read. */
function einvoiceAccepts(name: JsonSchemaName, payload: unknown): boolean {
  return validate(zodSchemas[name], name === 'config' ? payload : withoutSchemaKey(payload)).success;
}

const ajv = newAjv();
const compiled = new Map(jsonSchemaNames.map((name) => [name, ajv.compile(jsonSchemaOf(name))]));

/** ajv's verdict on `payload` against the JSON Schema `einvoice schema NAME` prints. */
function ajvAccepts(name: JsonSchemaName, payload: unknown): boolean {
  return (compiled.get(name) as (payload: unknown) => boolean)(payload);
}

/** VS Code's verdict on a file of the `name` schema holding `payload`. */
const editorAccepts = editorValidator(Object.fromEntries(jsonSchemaNames.map((name) => [name, jsonSchemaOf(name)])));

/** The three verdicts on `payload`. */
async function verdicts(name: JsonSchemaName, payload: unknown) {
  return {
    einvoice: einvoiceAccepts(name, payload),
    editor: await editorAccepts(name, payload),
    ajv: ajvAccepts(name, payload),
  };
}

describe.each(jsonSchemaNames)('einvoice schema %s', (name) => {
  test('is a draft 2020-12 schema of an object that allows $schema', () => {
    const schema = jsonSchemaOf(name);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.type).toBe('object');
    expect(schema.properties).toHaveProperty('$schema', { type: 'string' });
    expect(ajv.validateSchema(schema)).toBe(true);
  });

  test('the corpus has payloads of both verdicts', () => {
    expect(corpus[name].filter((entry) => entry.valid).length).toBeGreaterThan(5);
    expect(corpus[name].filter((entry) => !entry.valid).length).toBeGreaterThan(5);
  });

  test.each(corpus[name])('$name (valid: $valid)', async ({ payload, valid }) => {
    expect(await verdicts(name, payload)).toEqual({ einvoice: valid, editor: valid, ajv: valid });
  });
});

/** A small seeded generator, so a failure names a payload that fails again on the next run. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(list: readonly T[]) => list[int(list.length)] as T;
  const digits = (count: number) => Array.from({ length: count }, () => String(int(10))).join('');
  return { int, pick, digits };
}

/** Text shaped like a number and its near misses: signs, blanks, no digits on one side of the point, zeros. */
function numericTexts(seed: number, count: number): string[] {
  const { int, pick, digits } = random(seed);
  return Array.from({ length: count }, () => {
    const whole = pick(['', '0', '00', digits(1), digits(2), digits(3), '100', '1000', digits(9)]);
    const fraction = pick(['', '.', `.${digits(1)}`, `.${digits(2)}`, `.${digits(3)}`, '.00', '.000', `.${digits(9)}`]);
    const blank = () => pick(['', '', '', ' ', '\t', '\n ']);
    const junk = int(12) === 0 ? pick(['e2', '%', ',5', 'x', '-']) : '';
    return `${blank()}${pick(['', '', '', '-', '+'])}${whole}${fraction}${junk}${blank()}`;
  });
}

/** Numbers with up to five decimals, some negative, some huge. */
function numbers(seed: number, count: number): number[] {
  const { int, pick } = random(seed);
  return Array.from({ length: count }, () => {
    const scale = 10 ** pick([0, 1, 2, 3, 5]);
    const magnitude = pick([1, 100, 10_000, 1_000_000, 1e9]);
    return (pick([1, 1, 1, -1]) * int(magnitude * scale)) / scale;
  });
}

/**
 * The values on which the verdicts differ, and how many einvoice accepted and refused. ajv is asked only below
 * `ajvExactBelow`: above it, its float arithmetic refuses some amounts with two decimals (docs/schema.md says so).
 */
async function compare(name: JsonSchemaName, values: readonly unknown[], payloadOf: (value: unknown) => unknown) {
  const disagreements: unknown[] = [];
  let accepted = 0;
  for (const value of values) {
    const { einvoice, editor, ajv } = await verdicts(name, payloadOf(value));
    const askAjv = typeof value !== 'number' || Math.abs(value) < ajvExactBelow;
    if (editor !== einvoice || (askAjv && ajv !== einvoice)) disagreements.push({ value, einvoice, editor, ajv });
    if (einvoice) accepted += 1;
  }
  return { disagreements, accepted, refused: values.length - accepted };
}

const refund = () => ({ amount: 1, reason: 'Damaged', orderReferenceNumber: '3712345' });
const percentageDiscount = () => ({ ...recurringInvoice(), discount: { value: 10, type: 'PERCENTAGE' } });

describe('generated values get the same verdict from einvoice, the editor and ajv', () => {
  test.each([
    { field: 'refund amount as text', name: 'refund', base: refund, path: 'amount', values: numericTexts(1, 500) },
    { field: 'refund amount as a number', name: 'refund', base: refund, path: 'amount', values: numbers(2, 500) },
    { field: 'taxes as text', name: 'single', base: singleInvoice, path: 'taxes', values: numericTexts(3, 500) },
    {
      field: 'taxes as a number',
      name: 'single',
      base: singleInvoice,
      path: 'taxes',
      values: numbers(4, 500).map((value) => value / 1e4),
    },
    { field: 'an item price', name: 'single', base: singleInvoice, path: 'items.0.price', values: numbers(5, 500) },
    {
      field: 'a PERCENTAGE discount value',
      name: 'recurring',
      base: percentageDiscount,
      path: 'discount.value',
      values: numbers(6, 500).map((value) => value % 300),
    },
  ] as const)('$field', async ({ name, base, path, values }) => {
    const result = await compare(name, values, (value) => withField(base(), path, value));
    expect(result.disagreements).toEqual([]);
    // Each verdict is met often enough that agreeing on it means something.
    expect(result.accepted).toBeGreaterThan(values.length / 20);
    expect(result.refused).toBeGreaterThan(values.length / 20);
  });
});

describe('amounts of any size', () => {
  test('einvoice and the editor accept two decimals and refuse three, however large the amount', async () => {
    const amounts = [141_006_698.83, 315_840_350.46, 9_999_999_999.99, 123_456_789_012.5];
    for (const amount of amounts) {
      expect(await verdicts('refund', { ...refund(), amount })).toMatchObject({ einvoice: true, editor: true });
      const threeDecimals = amount + 0.001;
      expect(await verdicts('refund', { ...refund(), amount: threeDecimals })).toMatchObject({
        einvoice: false,
        editor: false,
      });
    }
  });
});
