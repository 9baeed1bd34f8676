// The values the service documents for its enumerated fields, zod-free: the zod schemas (src/schemas) and the field
// descriptions (src/input/field-descriptions.ts) both read them, and `--help` loads the latter without loading zod.

/** Languages the service writes notifications in. */
export const communicationLangs = ['en-gb', 'ar-eg'] as const;
/** How the customer is notified; NONE sends nothing. */
export const communicationMethods = ['SMS', 'EMAIL', 'BOTH', 'NONE'] as const;
/** How the customer pays a single invoice. */
export const paymentTypes = ['PUSH_TO_CUSTOMER', 'PUSH_TO_SERVICE_PAY'] as const;
/** Interval unit of a recurring invoice. */
export const cycleTypes = ['MONTH', 'WEEK'] as const;
/** Kinds of discount of a recurring invoice; an item discount of a single invoice is FLAT only. */
export const discountTypes = ['FLAT', 'PERCENTAGE'] as const;
/** Payment methods the spec names; a merchant may be allowed others, so any non-empty text is accepted. */
export const knownPaymentMethods = ['PayAtService', 'CARD', 'VALU'] as const;

/** Methods that need the customer's e-mail address (rule 2.3.4): the customer is e-mailed. */
export const methodsNeedingEmail: ReadonlySet<string> = new Set(['EMAIL', 'BOTH']);

/**
 * Rule 2.3.4, the one place it is written: true when `method` notifies the customer by e-mail, so the customer's
 * e-mail is required. The schemas (zod, the fast path, the JSON Schema), the prompts and the sandbox's
 * notifications all ask this.
 */
export function notifiesByEmail(method: unknown): boolean {
  return typeof method === 'string' && methodsNeedingEmail.has(method);
}
