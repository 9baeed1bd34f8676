import * as z from 'zod';
import { configSchema } from './config.js';
import { recurringInvoiceSchema, singleInvoiceSchema } from './invoice.js';
import { refundSchema } from './refund.js';

/** The schemas `einvoice schema` prints. */
export const jsonSchemaNames = ['single', 'recurring', 'refund', 'config'] as const;
export type JsonSchemaName = (typeof jsonSchemaNames)[number];

const sources = {
  single: singleInvoiceSchema,
  recurring: recurringInvoiceSchema,
  refund: refundSchema,
  config: configSchema,
};

/**
 * The JSON Schema (draft 2020-12) of what a merchant may write, from zod's own conversion. Rules zod cannot convert
 * by itself carry their JSON Schema counterpart in `.meta()` beside the rule, so the two never disagree; a type zod
 * cannot convert at all throws here rather than being silently widened. Money is `multipleOf: 0.01`; a validator
 * that computes it on floats needs a tolerance (the ajv recipe of docs/schema.md).
 */
export function jsonSchemaOf(name: JsonSchemaName): Record<string, unknown> {
  const schema = z.toJSONSchema(sources[name], { io: 'input' }) as Record<string, unknown>;
  // A file may name its schema for the editor: every file einvoice reads allows a top-level `$schema` (the invoice
  // and refund readers drop it before validating).
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  return { ...schema, properties: { $schema: { type: 'string' }, ...properties } };
}
