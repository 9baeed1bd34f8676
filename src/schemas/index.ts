// Every schema, for the programmatic API (src/lib.ts). The CLI's own modules import the file that defines what they
// use instead: evaluating this one builds every schema, several milliseconds of a command's start-up.
export * from './enums.js';
export * from './fields.js';
export * from './calendar.js';
export * from './customer.js';
export * from './discount.js';
export * from './item.js';
export * from './invoice.js';
export * from './refund.js';
export * from './statistics.js';
export * from './service-error.js';
export * from './invoice-number.js';
export * from './sandbox-admin.js';
export * from './money.js';
export * from './validate.js';
export * from './config.js';
export * from './stats-condition.js';
