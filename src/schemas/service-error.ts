import * as z from 'zod';

/** One failing field in an error body: `{ "field": "items[2].price", "message": "must be 0 or more" }`. */
export const fieldErrorSchema = z.object({
  field: z.string(),
  message: z.string(),
});

/**
 * The error body the sandbox returns (the real service's shape is not documented):
 * `{ "status": 400, "code": "VALIDATION_FAILED", "message": "...", "errors": [...], "invoiceNumber": "..." }`.
 * `invoiceNumber` names the existing invoice of a DUPLICATE_INVOICE error.
 */
export const serviceErrorSchema = z.object({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  errors: z.array(fieldErrorSchema).optional(),
  invoiceNumber: z.string().optional(),
});

/** The error codes the sandbox uses. */
export const serviceErrorCodes = {
  validationFailed: 'VALIDATION_FAILED',
  malformedJson: 'MALFORMED_JSON',
  duplicateInvoice: 'DUPLICATE_INVOICE',
  unauthorized: 'UNAUTHORIZED',
  notFound: 'NOT_FOUND',
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  invalidState: 'INVALID_STATE',
  refundRejected: 'REFUND_REJECTED',
  internal: 'INTERNAL_ERROR',
  unavailable: 'SERVICE_UNAVAILABLE',
  rateLimited: 'RATE_LIMITED',
} as const;

/**
 * What the client reads of any error body: every field optional, so an unknown service's body still yields
 * whatever message it carries.
 */
export const lenientServiceErrorSchema = z.looseObject({
  code: z.string().optional(),
  message: z.string().optional(),
  error: z.string().optional(),
  errors: z
    .array(z.looseObject({ field: z.string().optional(), path: z.string().optional(), message: z.string().optional() }))
    .optional(),
  invoiceNumber: z.union([z.string(), z.number()], { error: 'must be text or a number' }).optional(),
});

export type ServiceErrorBody = z.output<typeof serviceErrorSchema>;
