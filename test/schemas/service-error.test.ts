import { describe, expect, test } from 'vitest';
import { lenientServiceErrorSchema, serviceErrorSchema } from '../../src/schemas/service-error.js';
import { issuesOf, parsed } from './fixtures.js';

// The sandbox's error body (strict about its own shape) and what the client reads of any error body (lenient).

const validationError = () => ({
  status: 400,
  code: 'VALIDATION_FAILED',
  message: 'The invoice has 1 problem.',
  errors: [{ field: 'items[2].price', message: 'must be 0 or more' }],
});

describe('serviceErrorSchema', () => {
  test.each([
    validationError(),
    { status: 409, code: 'DUPLICATE_INVOICE', message: 'Already created.', invoiceNumber: '1001' },
    { status: 401, code: 'UNAUTHORIZED', message: 'Token expired.' },
  ])('$code is read as given', (body) => {
    expect(parsed(serviceErrorSchema, body)).toEqual(body);
  });

  test.each([
    { path: 'status', patch: { status: '400' }, message: 'must be a number' },
    { path: 'status', patch: { status: 400.5 }, message: 'must be a whole number' },
    { path: 'code', patch: { code: undefined }, message: 'is required' },
    { path: 'message', patch: { message: 42 }, message: 'must be text' },
    { path: 'errors', patch: { errors: { field: 'amount' } }, message: 'must be a list' },
    {
      path: 'errors[1].message',
      patch: { errors: [{ field: 'a', message: 'b' }, { field: 'c' }] },
      message: 'is required',
    },
    { path: 'errors[0].field', patch: { errors: [{ field: 3, message: 'b' }] }, message: 'must be text' },
    { path: 'invoiceNumber', patch: { invoiceNumber: 1001 }, message: 'must be text' },
  ])('$path rejects $patch', ({ path, patch, message }) => {
    expect(issuesOf(serviceErrorSchema, { ...validationError(), ...patch })).toEqual([{ path, message }]);
  });
});

describe('lenientServiceErrorSchema', () => {
  test.each([
    {},
    { message: 'Bad request' },
    { error: 'Unauthorized', path: '/invoice-api/invoices/single', timestamp: '2026-03-01T08:00:00.000Z' },
    { code: 'X', errors: [{ path: 'amount', message: 'invalid', extra: 1 }], invoiceNumber: 1001 },
    { invoiceNumber: '1001' },
  ])('%j is read, unknown fields kept', (body) => {
    expect(parsed(lenientServiceErrorSchema, body)).toEqual(body);
  });

  test.each([
    { path: 'message', body: { message: 5 }, message: 'must be text' },
    { path: 'errors', body: { errors: 'amount is wrong' }, message: 'must be a list' },
    { path: 'errors[1].message', body: { errors: [{}, { message: false }] }, message: 'must be text' },
  ])('$body is rejected at $path', ({ path, body, message }) => {
    expect(issuesOf(lenientServiceErrorSchema, body)).toEqual([{ path, message }]);
  });

  test.each([true, null, {}])('invoiceNumber %j is rejected at its path', (invoiceNumber) => {
    expect(issuesOf(lenientServiceErrorSchema, { invoiceNumber })).toEqual([
      { path: 'invoiceNumber', message: 'must be text or a number' },
    ]);
  });
});
