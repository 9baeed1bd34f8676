// The programmatic API: `import { createClient, startSandbox, singleInvoiceSchema } from 'einvoice'`.

export { createClient, servicePaths, type ClientOptions, type InvoiceClient } from './api/client.js';
export { startSandbox, type RunningSandbox, type SandboxOptions } from './sandbox/index.js';
export { resolveProfile, type Profile } from './config/profile.js';
export {
  EinvoiceError,
  UsageError,
  AuthError,
  ServiceRejectedError,
  ServiceUnavailableError,
  OutcomeUnknownError,
  PartialFailureError,
  ConditionError,
  InterruptedError,
  ExitCode,
  type FieldIssue,
} from './errors.js';
export * from './schemas/index.js';
export { main } from './index.js';
