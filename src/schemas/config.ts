import { z } from 'zod';
import {
  communicationLangs,
  communicationMethods,
  flag,
  oneOf,
  paymentTypes,
  taxesPercentage,
  text,
} from './fields.js';

/** The environment that must always be named explicitly. */
export const productionEnvironment = 'production';
/** The built-in environment served by the embedded sandbox when it has no baseUrl. */
export const sandboxEnvironment = 'sandbox';

const tokenSources = ['token', 'tokenEnv', 'tokenCommand'] as const;

/** One environment of the profile file: where the service is and where its token comes from. */
export const environmentSchema = z
  .strictObject({
    baseUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://staging.example.com' })
      .optional(),
    token: text().optional(),
    tokenEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
        error: 'must be the name of an environment variable, e.g. EINVOICE_STAGING_TOKEN',
      })
      .optional(),
    tokenCommand: text().optional(),
  })
  .check((ctx) => {
    const given = tokenSources.filter((source) => ctx.value[source] !== undefined);
    if (given.length > 1) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: [given[1] as string],
        message: `give one token source, not ${given.join(' and ')}`,
      });
    }
  });

/** Invoice fields a merchant sets once per profile file instead of on every command. */
export const invoiceDefaultsSchema = z.strictObject({
  communicationLang: oneOf(communicationLangs).optional(),
  communicationMethod: oneOf(communicationMethods).optional(),
  paymentType: oneOf(paymentTypes).optional(),
  preferredPaymentMethod: text().optional(),
  alertMerchantUponExpiry: flag().optional(),
  taxes: taxesPercentage().optional(),
});

/** The profile file (`.einvoicerc` and friends). */
export const configSchema = z
  .strictObject({
    $schema: z.string().optional(),
    defaultEnv: text().optional(),
    environments: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/), environmentSchema).optional(),
    defaults: invoiceDefaultsSchema.optional(),
  })
  .check((ctx) => {
    const { defaultEnv, environments } = ctx.value;
    if (defaultEnv === productionEnvironment) {
      ctx.issues.push({
        code: 'custom',
        input: defaultEnv,
        path: ['defaultEnv'],
        message: 'must not be production: choose production explicitly with --env production or EINVOICE_ENV',
      });
    } else if (defaultEnv && defaultEnv !== sandboxEnvironment && !environments?.[defaultEnv]) {
      ctx.issues.push({
        code: 'custom',
        input: defaultEnv,
        path: ['defaultEnv'],
        message: `names no environment in environments (known: ${[sandboxEnvironment, ...Object.keys(environments ?? {})].join(', ')})`,
      });
    }
  });

export type EnvironmentConfig = z.output<typeof environmentSchema>;
export type InvoiceDefaults = z.output<typeof invoiceDefaultsSchema>;
export type Config = z.output<typeof configSchema>;
