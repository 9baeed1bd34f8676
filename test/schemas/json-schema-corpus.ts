import { item, recurringInvoice, singleInvoice } from './fixtures.js';

// Payloads that the JSON Schema of `einvoice schema NAME` and the zod schema must judge alike, each changed from a
// valid fixture in one place. Rules JSON Schema cannot express are left out on purpose, each with its reason:
// - an item discount above price x purchasedQuantity (JSON Schema cannot multiply two fields);
// - a defaultEnv naming no entry of environments while others exist (it cannot compare a value with key names);
// - a baseUrl that starts with http(s):// but that a URL parser refuses, e.g. "https://" or "http://a b";
// - a recurring FLAT discount above the amount (it cannot compare two fields);
// - items whose total (price x purchasedQuantity, added up) passes the largest amount (it cannot add up a list).

/** One payload and the verdict both validators must give. */
export interface CorpusCase {
  name: string;
  payload: unknown;
  valid: boolean;
}

/** `base` with the field at dotted `path` (array indexes as numbers) set to `value`, or removed when undefined. */
export function withField(base: object, path: string, value: unknown): unknown {
  const copy = structuredClone(base) as Record<string, unknown>;
  const keys = path.split('.');
  const last = keys.pop() as string;
  let target = copy;
  for (const key of keys) target = target[key] as Record<string, unknown>;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

type Changes = ReadonlyArray<readonly [path: string, value: unknown]>;

/** Cases made by changing one field of `base` each. */
function changes(base: () => object, valid: boolean, list: Changes): CorpusCase[] {
  return list.map(([path, value]) => ({
    name: `${path} = ${JSON.stringify(value) ?? '(absent)'}`,
    payload: withField(base(), path, value),
    valid,
  }));
}

const noEmail = () => ({ name: 'Mona Adel', mobile: '+201001234567' });

/** Changes that both kinds of invoice accept or refuse alike. */
const commonValid: Changes = [
  ['amount', 0.01],
  ['amount', 0.07],
  ['amount', 1.15],
  ['amount', 1234567.89],
  ['amount', 99_999_999.99],
  ['amount', 9_999_999_999_999.99],
  ['customer', noEmail()],
  ['customer.name', 'منى عادل'],
  ['customer.name', 'مُنى عَادِل'],
  ['customer.mobile', '0100 123 4567'],
  ['customer.mobile', '+20 (100) 123-4567'],
  ['communicationMethod', 'sms'],
  ['communicationMethod', ' Email '],
  ['communicationLang', 'AR-EG'],
  ['sendingDate', '2000-01-01'],
  ['sendingDate', '2100-12-31'],
  ['items.0', { ...item(), purchasedQuantity: 999_999_999_999_999, price: 0.01 }],
  ['items.0.nameAr', 'كوبٌ كبيرٌ'],
  ['customer', { name: ' Mona ', mobile: ' +201001234567 ' }],
  ['customer.email', 'Mona.Adel+inv@shop.example.eg'],
  ['customer.email', 'mona@a-b-.example.com'],
  ['customer.mobile', '1234567'],
  ['communicationMethod', 'NONE'],
  ['communicationMethod', 'EMAIL'],
  ['communicationMethod', 'BOTH'],
  ['communicationMethod', undefined],
  ['communicationLang', 'ar-eg'],
  ['sendingDate', '2028-02-29'],
  ['expiryDate', '2026-12-31T23:59:59.999Z'],
  ['alertMerchantUponExpiry', 'true'],
  ['alertMerchantUponExpiry', true],
  ['taxes', 0],
  ['taxes', 100],
  ['taxes', 14.5],
  ['taxes', '0'],
  ['taxes', '100.000'],
  ['taxes', ' 14 '],
  ['taxes', '007'],
  ['taxes', '99.9999999'],
  ['taxes', undefined],
  ['items', []],
  ['items', undefined],
  ['items.0.price', 0],
  ['items.0.purchasedQuantity', 1000],
  ['businessReference', ' ORD-1 '],
  ['businessReference', undefined],
  ['preferredPaymentMethod', 'INSTALMENTS'],
];

const commonInvalid: Changes = [
  ['amount', 0],
  ['amount', -5],
  ['amount', 10.005],
  ['amount', 0.001],
  ['amount', '100'],
  ['amount', null],
  ['amount', undefined],
  ['customer', undefined],
  ['customer', 'Mona'],
  ['customer.name', ''],
  ['customer.name', ' \t '],
  ['customer.name', undefined],
  ['customer.mobile', '123456'],
  ['customer.mobile', '+20\n1001234567'],
  ['amount', 10_000_000_000_000],
  ['amount', 1e308],
  ['customer.name', 'Mona\u0000Adel'],
  ['customer.name', 'Mona\u001b[2JAdel'],
  ['customer.name', 'Mona\u0085Adel'],
  ['customer.name', 'Mona\u007f'],
  ['customer.name', 'Mona\u202eladA'],
  ['customer.name', 'Mona\u2066Adel'],
  ['customer.name', 'Mona\u2028Adel'],
  ['note', 'line one\u2029line two'],
  ['customer.email', 'mona\u0000@example.com'],
  ['customer.email', 'mona@example.com\u001b[2J'],
  ['customer.email', 'mona@\u202eelpmaxe.com'],
  ['customer.email', 'mona@example.com\u2028'],
  ['note', 'line one\nline two'],
  ['businessReference', 'ORD\u0007'],
  ['preferredPaymentMethod', 'CA\rRD'],
  ['sendingDate', '1999-12-31'],
  ['sendingDate', '2101-01-01'],
  ['sendingDate', '0202-03-01'],
  ['expiryDate', '2126-03-31T21:59:59.000Z'],
  ['releaseDate', '1970-01-01T00:00:00.000Z'],
  ['items.0.purchasedQuantity', 1_000_000_000_000_000],
  ['items.0.price', 10_000_000_000_000],
  ['items.0.itemCode', 'SKU\u0000'],
  ['customer.mobile', '+1234567890123456'],
  ['customer.mobile', 201001234567],
  ['customer.phone', '+201001234567'],
  ['sendingDate', '2026-02-30'],
  ['sendingDate', '2026-3-1'],
  ['sendingDate', '2026-03-01T00:00:00.000Z'],
  ['expiryDate', '2026-03-31T21:59:59Z'],
  ['expiryDate', '2026-03-31T21:59:59.000+02:00'],
  ['expiryDate', '2026-03-31 21:59:59.000Z'],
  ['releaseDate', '2026-02-29T08:00:00.000Z'],
  ['releaseDate', undefined],
  ['note', ''],
  ['note', '   '],
  ['note', 42],
  ['communicationLang', 'fr'],
  ['communicationMethod', 'SMSS'],
  ['alertMerchantUponExpiry', 'yes'],
  ['alertMerchantUponExpiry', 0],
  ['taxes', 101],
  ['taxes', -1],
  ['taxes', 100.01],
  ['taxes', '101'],
  ['taxes', '100.5'],
  ['taxes', '100.0001'],
  ['taxes', '-5'],
  ['taxes', '14%'],
  ['taxes', ''],
  ['taxes', '1e2'],
  ['taxes', '.5'],
  ['taxes', true],
  ['taxes', null],
  ['items', 'SKU-1'],
  ['items.0.price', -1],
  ['items.0.price', 1.234],
  ['items.0.purchasedQuantity', 0],
  ['items.0.purchasedQuantity', 1.5],
  ['items.0.itemCode', ' '],
  ['items.0.nameAr', undefined],
  ['items.0.colour', 'red'],
  ['preferredPaymentMethod', ''],
  ['colour', 'red'],
];

/**
 * The e-mail rule (2.3.4), which needs the method and the customer together: an e-mail invoice needs the customer's
 * e-mail, and an address there; any other is sent with the e-mail as given (the spec gives it no format).
 */
const emailRuleCases = (base: () => object): CorpusCase[] =>
  (['EMAIL', 'BOTH', 'SMS', 'NONE'] as const).flatMap((method) => [
    {
      name: `communicationMethod ${method} without an e-mail`,
      payload: { ...base(), communicationMethod: method, customer: noEmail() },
      valid: method === 'SMS' || method === 'NONE',
    },
    ...['mona@', 'mona@example', '', '20231187'].map((email) => ({
      name: `communicationMethod ${method} with the e-mail ${JSON.stringify(email)}`,
      payload: { ...base(), communicationMethod: method, customer: { ...noEmail(), email } },
      valid: method === 'SMS' || method === 'NONE',
    })),
  ]);

const percentageRecurring = () => ({ ...recurringInvoice(), discount: { value: 10, type: 'PERCENTAGE' } });

const singleOnly = (valid: boolean, list: Changes) => changes(singleInvoice, valid, list);
const recurringOnly = (valid: boolean, list: Changes) => changes(recurringInvoice, valid, list);

const minimalSingle = () => ({
  customer: noEmail(),
  amount: 10,
  sendingDate: '2026-03-01',
  expiryDate: '2026-03-31T21:59:59.000Z',
  releaseDate: '2026-03-01T08:00:00.000Z',
  note: 'March order',
});

/** Every corpus, by the name `einvoice schema` takes. */
export const corpus = {
  single: [
    { name: 'the fixture', payload: singleInvoice(), valid: true },
    { name: 'only the required fields', payload: minimalSingle(), valid: true },
    {
      name: 'a $schema naming the schema',
      payload: { $schema: './single.schema.json', ...singleInvoice() },
      valid: true,
    },
    { name: 'a $schema that is not text', payload: { $schema: 1, ...singleInvoice() }, valid: false },
    { name: 'not an object', payload: [singleInvoice()], valid: false },
    ...emailRuleCases(singleInvoice),
    ...singleOnly(true, commonValid),
    ...singleOnly(true, [
      ['paymentType', 'PUSH_TO_SERVICE_PAY'],
      ['paymentType', undefined],
      ['items.0.discount', { value: 5.5, type: 'FLAT' }],
      ['items.0.discount', { value: 0, type: 'FLAT' }],
      ['items.0.discount', { value: 5, type: 'flat' }],
      ['paymentType', 'push_to_service_pay'],
    ]),
    ...singleOnly(false, commonInvalid),
    ...singleOnly(false, [
      ['paymentType', 'CARD'],
      ['cycleType', 'MONTH'],
      ['cycleValue', 1],
      ['cycleValue', null],
      ['discount', { value: 10, type: 'FLAT' }],
      ['items.0.discount', { value: 5, type: 'PERCENTAGE' }],
      ['items.0.discount', { value: -1, type: 'FLAT' }],
      ['items.0.discount', { value: 1.234, type: 'FLAT' }],
      ['items.0.discount', { type: 'FLAT' }],
      ['items.0.discount', 'FLAT 5'],
    ]),
  ],
  recurring: [
    { name: 'the fixture', payload: recurringInvoice(), valid: true },
    ...emailRuleCases(recurringInvoice),
    // A FLAT discount may not be more than the amount, which JSON Schema cannot say: small amounts take a percentage.
    ...changes(percentageRecurring, true, commonValid),
    ...recurringOnly(true, [
      ['cycleType', 'WEEK'],
      ['cycleValue', 52],
      ['discount', { value: 100, type: 'PERCENTAGE' }],
      ['discount', { value: 0, type: 'PERCENTAGE' }],
      ['discount', { value: 99, type: 'FLAT' }],
      ['discount', { value: 10, type: 'flat' }],
      ['cycleType', 'week'],
    ]),
    ...changes(percentageRecurring, false, commonInvalid),
    ...recurringOnly(false, [
      ['cycleType', 'DAY'],
      ['cycleType', undefined],
      ['cycleValue', 0],
      ['cycleValue', 1.5],
      ['cycleValue', '1'],
      ['discount', undefined],
      ['discount', { value: 101, type: 'PERCENTAGE' }],
      ['discount', { value: 1000, type: 'PERCENTAGE' }],
      ['discount', { value: 1.5, type: 'FLAT' }],
      ['discount', { value: -1, type: 'FLAT' }],
      ['discount', { value: 10, type: 'FIXED' }],
      ['discount', { value: 10 }],
      ['paymentType', 'PUSH_TO_CUSTOMER'],
      ['items.0', { ...item(), discount: { value: 1, type: 'FLAT' } }],
    ]),
  ],
  refund: [
    ...refundCases(true, [
      12.5,
      100,
      0.07,
      19.99,
      0.29,
      1.15,
      '12.50',
      ' 12.5 ',
      '7',
      '0.01',
      '00.10',
      '12.500',
      '0.5',
      '1000000',
    ]),
    ...refundCases(false, [
      0,
      -5,
      12.505,
      null,
      true,
      undefined,
      '0',
      '0.00',
      '-5',
      '-0.5',
      '12.505',
      '1.000000001',
      'twelve',
      '1e3',
      '12,50',
      '1.',
      '.5',
      '',
      '+5',
    ]),
    { name: 'a $schema naming the schema', payload: { $schema: 'refund.json', ...refund() }, valid: true },
    { name: 'a blank reason', payload: { ...refund(), reason: '  ' }, valid: false },
    { name: 'a numeric order reference', payload: { ...refund(), orderReferenceNumber: 9876543 }, valid: false },
    { name: 'an unknown field', payload: { ...refund(), invoiceNumber: '1001' }, valid: false },
  ],
  config: configCases(),
} satisfies Record<string, CorpusCase[]>;

function refund() {
  return { amount: 12.5, reason: 'Damaged on delivery', orderReferenceNumber: '9876543' };
}

function refundCases(valid: boolean, amounts: unknown[]): CorpusCase[] {
  return amounts.map((amount) => ({
    name: `amount ${JSON.stringify(amount) ?? '(absent)'}`,
    payload: withField(refund(), 'amount', amount),
    valid,
  }));
}

function configCases(): CorpusCase[] {
  const staging = { baseUrl: 'https://staging.example.com', tokenEnv: 'EINVOICE_STAGING_TOKEN' };
  const profile = (environment: object, extra: object = {}) => ({
    defaultEnv: 'staging',
    environments: { staging: environment },
    ...extra,
  });
  const valid: Array<[string, unknown]> = [
    ['an empty file', {}],
    [
      'a full profile',
      profile(staging, { $schema: 'x.json', defaults: { taxes: '14', paymentType: 'PUSH_TO_CUSTOMER' } }),
    ],
    ['defaultEnv sandbox with no environments', { defaultEnv: ' sandbox ' }],
    ['environments with no defaultEnv', { environments: {} }],
    ['a production entry chosen explicitly', { environments: { production: staging } }],
    ['a token in the file', profile({ token: 'tok-123' })],
    ['a token command', profile({ tokenCommand: 'pass show einvoice' })],
    ['no token source', profile({ baseUrl: 'http://127.0.0.1:4010' })],
    ['an upper-case scheme', profile({ baseUrl: 'HTTPS://Staging.Example.com/api' })],
    ['defaults', { defaults: { alertMerchantUponExpiry: 'false', taxes: 0, communicationLang: 'ar-eg' } }],
  ];
  const invalid: Array<[string, unknown]> = [
    ['defaultEnv production', profile(staging, { defaultEnv: 'production', environments: { production: staging } })],
    ['defaultEnv production, blank around', { defaultEnv: ' production ', environments: { production: staging } }],
    ['defaultEnv with no environments', { defaultEnv: 'staging' }],
    ['defaultEnv with empty environments', { defaultEnv: 'staging', environments: {} }],
    ['defaultEnv that cannot be a name', { defaultEnv: 'my env', environments: { staging } }],
    ['defaultEnv blank', { defaultEnv: '  ' }],
    ['token and tokenEnv', profile({ ...staging, token: 'tok-123' })],
    ['tokenEnv and tokenCommand', profile({ ...staging, tokenCommand: 'pass show x' })],
    ['three token sources', profile({ ...staging, token: 'a', tokenCommand: 'b' })],
    ['an ftp baseUrl', profile({ baseUrl: 'ftp://staging.example.com' })],
    ['a baseUrl with no scheme', profile({ baseUrl: 'staging.example.com' })],
    ['a tokenEnv that is no variable name', profile({ tokenEnv: '1TOKEN' })],
    ['a blank token', profile({ token: '  ' })],
    ['an environment name with a space', { environments: { 'my env': staging } }],
    ['an unknown environment field', profile({ ...staging, url: 'https://x.example.com' })],
    ['an unknown top-level field', { colour: 'red' }],
    ['defaults.taxes above 100', { defaults: { taxes: 101 } }],
    ['an unknown communicationMethod', { defaults: { communicationMethod: 'FAX' } }],
    ['an unknown default', { defaults: { amount: 5 } }],
    ['a $schema that is not text', { $schema: 5 }],
  ];
  return [
    ...valid.map(([name, payload]) => ({ name, payload, valid: true })),
    ...invalid.map(([name, payload]) => ({ name, payload, valid: false })),
  ];
}
