import * as z from 'zod';
import { isTimeZone } from './time-zone.js';
import { communicationLangs, communicationMethods, paymentTypes } from './enums.js';
import { oneOf, taxesPercentage, text, yesNo } from './fields.js';
import { isLoopback } from './loopback.js';

/** The environment that must always be named explicitly. */
export const productionEnvironment = 'production';
/** The built-in environment served by the embedded sandbox when it has no baseUrl. */
export const sandboxEnvironment = 'sandbox';

const tokenSources = ['token', 'tokenEnv', 'tokenCommand'] as const;

/** The name of an environment: letters, digits, `-` and `_`. */
const environmentNameChars = '[A-Za-z0-9_-]+';
const environmentName = new RegExp(`^${environmentNameChars}$`);
/** An environment's name, as `config init` asks for it and the profile file's `environments` keys it. */
export const environmentNameSchema = z
  .string()
  .regex(environmentName, { error: 'must be letters, digits, - or _ (e.g. staging, production)' });

/** Text that is `name` once trimmed, as a JSON Schema pattern. */
const trimmedIs = (name: string) => `^\\s*${name}\\s*$`;

/** One environment of the profile file: where the service is and where its token comes from. */
export const environmentSchema = z
  .strictObject({
    // JSON Schema has no keyword for "a URL parser accepts it" (ajv-formats' `uri` takes ftp: and refuses what a
    // browser parses), so the schema says the part it can: the text starts with http:// or https://.
    // A bearer token must not cross a network in clear: plain http:// is for a service on this machine only.
    baseUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://staging.example.com' })
      .refine((url) => !url.toLowerCase().startsWith('http://') || isLoopback(new URL(url).hostname), {
        error: 'must start with https:// (plain http:// only for this machine: 127.0.0.1, localhost)',
      })
      .meta({
        format: undefined,
        pattern:
          '^\\s*([Hh][Tt][Tt][Pp][Ss]://|[Hh][Tt][Tt][Pp]://(localhost|LOCALHOST|127(\\.[0-9]{1,3}){3}|\\[::1\\])([:/?#]|$))',
      })
      .optional(),
    token: text().optional(),
    tokenEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
        error: 'must be the name of an environment variable, e.g. EINVOICE_STAGING_TOKEN',
      })
      .optional(),
    tokenCommand: text().optional(),
    // Unattended runs of this environment refuse what a person at a terminal would have looked at.
    strict: z.boolean().optional(),
    // false: nothing sent to this environment is kept in the merchant's ledger (einvoice invoices).
    ledger: z.boolean().optional(),
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
  })
  .meta({
    // Each alternative names its type and properties again, so ajv's strictest mode compiles it too.
    not: {
      anyOf: tokenSources.flatMap((source, index) =>
        tokenSources.slice(index + 1).map((other) => ({
          type: 'object',
          properties: { [source]: {}, [other]: {} },
          required: [source, other],
        })),
      ),
    },
  });

/** Invoice fields a merchant sets once per profile file instead of on every command. */
export const invoiceDefaultsSchema = z.strictObject({
  communicationLang: oneOf(communicationLangs).optional(),
  communicationMethod: oneOf(communicationMethods).optional(),
  paymentType: oneOf(paymentTypes).optional(),
  preferredPaymentMethod: text().optional(),
  alertMerchantUponExpiry: yesNo().optional(),
  taxes: taxesPercentage().optional(),
});

/** The profile file (`.einvoicerc` and friends). */
export const configSchema = z
  .strictObject({
    $schema: z.string().optional(),
    // Only sandbox and the names of environments are right, and every such name has this shape.
    defaultEnv: text()
      .meta({ pattern: trimmedIs(environmentNameChars) })
      .optional(),
    environments: z.record(z.string().regex(environmentName), environmentSchema).optional(),
    defaults: invoiceDefaultsSchema.optional(),
    // The merchant's clock: `today` and bare dates are days of this zone (else TZ's, else the system's).
    timeZone: z
      .string()
      .trim()
      .refine(isTimeZone, { error: 'must be an IANA time zone, e.g. Africa/Cairo or UTC' })
      .optional(),
    // Shown beside amounts, never sent: the service's interface has no currency field.
    currency: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, { error: 'must be a three-letter currency code, e.g. EGP' })
      .transform((code) => code.toUpperCase())
      .optional(),
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
    } else if (defaultEnv && defaultEnv !== sandboxEnvironment && !Object.hasOwn(environments ?? {}, defaultEnv)) {
      ctx.issues.push({
        code: 'custom',
        input: defaultEnv,
        path: ['defaultEnv'],
        message: `names no environment in environments (known: ${[sandboxEnvironment, ...Object.keys(environments ?? {})].join(', ')})`,
      });
    }
  })
  .meta({
    title: 'einvoice profile file (.einvoicerc)',
    description:
      'defaultEnv must be sandbox or the name of an entry of environments. JSON Schema cannot compare a value with ' +
      'the names of an object, so this schema only asks for at least one environment when defaultEnv is not ' +
      'sandbox; einvoice checks the name. A baseUrl must also parse as a URL.',
    allOf: [
      { properties: { defaultEnv: { type: 'string', not: { pattern: trimmedIs(productionEnvironment) } } } },
      {
        if: {
          properties: { defaultEnv: { type: 'string', not: { pattern: trimmedIs(sandboxEnvironment) } } },
          required: ['defaultEnv'],
        },
        then: { properties: { environments: { type: 'object', minProperties: 1 } }, required: ['environments'] },
      },
    ],
  });

export type EnvironmentConfig = z.output<typeof environmentSchema>;
export type InvoiceDefaults = z.output<typeof invoiceDefaultsSchema>;
export type Config = z.output<typeof configSchema>;
