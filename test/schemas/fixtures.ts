import type { z } from 'zod';
import type { FieldIssue } from '../../src/errors.js';
import { validate } from '../../src/schemas/validate.js';

// Valid payloads in the order the spec lists their fields; each test changes one thing and names the path it expects.

/** The message of a sendingDate that is not a real `YYYY-MM-DD` date. */
export const DATE_MESSAGE = 'must be a real date in the form YYYY-MM-DD (e.g. 2026-12-31)';
/** The message of an expiryDate or releaseDate that is not a real `YYYY-MM-DDThh:mm:ss.sssZ` instant. */
export const INSTANT_MESSAGE =
  'must be a real UTC date-time in the form YYYY-MM-DDThh:mm:ss.sssZ (e.g. 2026-12-31T23:59:59.000Z)';
/** The message of taxes outside 0 to 100 or not a number. */
export const TAXES_MESSAGE = 'must be a percentage from 0 to 100 (e.g. 14)';
/** The message of a missing e-mail address when the customer is notified by e-mail. */
export const EMAIL_REQUIRED_MESSAGE = 'is required when communicationMethod is EMAIL or BOTH';

export const customer = () => ({ name: 'Mona Adel', email: 'mona@example.com', mobile: '+201001234567' });

export const item = () => ({
  itemCode: 'SKU-1',
  purchasedQuantity: 2,
  price: 49.99,
  nameEn: 'Mug',
  nameAr: 'كوب',
});

export const singleInvoice = () => ({
  customer: customer(),
  amount: 99.98,
  sendingDate: '2026-03-01',
  expiryDate: '2026-03-31T21:59:59.000Z',
  releaseDate: '2026-03-01T08:00:00.000Z',
  businessReference: 'ORD-1001',
  note: 'March order',
  communicationLang: 'en-gb',
  communicationMethod: 'SMS',
  alertMerchantUponExpiry: false,
  items: [item()],
  paymentType: 'PUSH_TO_CUSTOMER',
  taxes: '14',
  preferredPaymentMethod: 'CARD',
});

export const recurringInvoice = () => ({
  cycleType: 'MONTH',
  cycleValue: 1,
  customer: customer(),
  amount: 99.98,
  sendingDate: '2026-03-01',
  expiryDate: '2026-03-31T21:59:59.000Z',
  releaseDate: '2026-03-01T08:00:00.000Z',
  businessReference: 'SUB-1001',
  note: 'Monthly box',
  communicationLang: 'ar-eg',
  communicationMethod: 'SMS',
  alertMerchantUponExpiry: false,
  discount: { value: 10, type: 'FLAT' },
  items: [item()],
  taxes: '14',
  preferredPaymentMethod: 'CARD',
});

/** A copy of `value` without `key`. */
export function without<T extends object>(value: T, key: keyof T): Partial<T> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

/** The field issues of a payload the schema must reject; throws (failing the test) when it is accepted. */
export function issuesOf(schema: z.ZodType, payload: unknown): FieldIssue[] {
  const result = validate(schema, payload);
  if (result.success) throw new Error(`expected a rejection, but it was accepted: ${JSON.stringify(result.data)}`);
  return result.issues;
}

/** The parsed value of a payload the schema must accept; throws (failing the test) with the issues otherwise. */
export function parsed<S extends z.ZodType>(schema: S, payload: unknown): z.output<S> {
  const result = validate(schema, payload);
  if (!result.success) throw new Error(`expected acceptance, but got: ${JSON.stringify(result.issues)}`);
  return result.data;
}
