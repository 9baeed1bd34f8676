import {
  communicationLangs,
  communicationMethods,
  cycleTypes,
  discountTypes,
  knownPaymentMethods,
  notifiesByEmail,
  paymentTypes,
} from '../schemas/enums.js';
import type { InvoiceKind } from '../schemas/invoice.js';
import { fromMinorUnits } from '../schemas/money.js';
import { itemsTotal } from './invoice-input.js';
import { numberOrText } from './item-spec.js';

// Each field of an invoice request described once: how a merchant gives it (flag, prompt, completion, help) and which
// kind of invoice it belongs to. The rules a value must follow are the zod schemas' alone (src/schemas); this module
// is zod-free because `--help` reads it. Commander options, the flag -> request mapping, the prompts,
// `--print-command` and shell completion are all generated from `invoiceFields`.

/** Which kind of invoice a field belongs to. */
export type FieldScope = 'single' | 'recurring' | 'both';

/**
 * How a value is given: `text`, a `number` (read exactly from its digits), a `date` (relative forms allowed), one of
 * `values` (`choice`), `yes-no` (a flag without a value, and its `--no-` form), or `items` (the repeatable `--item`
 * spec, asked for by the item loop).
 */
export type FieldInput = 'text' | 'number' | 'date' | 'choice' | 'yes-no' | 'items';

/** The answers given so far at the prompts, in the request's shape. */
export type Answers = Record<string, unknown>;

/** How the prompts ask for a field. */
export interface FieldPrompt {
  /** The question. */
  message: string;
  /** Asked among the fields a request needs, or offered among the optional ones. */
  group: 'required' | 'optional';
  /** Position of the question within its group. */
  order: number;
  /** How an optional field is named in the list of optional fields. */
  label?: string;
  /** The answer offered when the field has none yet. */
  default?: (answers: Answers) => string | undefined;
  /** Asked only when this holds for the answers so far. */
  when?: (answers: Answers) => boolean;
}

/** One field of the invoice request, described once. */
export interface InvoiceField {
  /** The field's dotted path in the request: `customer.name`. */
  readonly path: string;
  /** The long flag that sets it: `--customer-name`. */
  readonly flag: `--${string}`;
  /** The placeholder of the flag's value in help: `<name>`; none for a yes/no flag. */
  readonly valueName?: string;
  readonly input: FieldInput;
  readonly scope: FieldScope;
  /** The help line of the flag; per kind where the kinds differ. */
  readonly help: string | Readonly<Record<InvoiceKind, string>>;
  /** The only values the schema accepts (from src/schemas/enums.ts). */
  readonly values?: readonly string[];
  /** Values offered by completion where others are accepted too. */
  readonly suggestions?: readonly string[];
  /** How the prompts ask for it; `items` are asked by the item loop instead. */
  readonly prompt?: FieldPrompt;
}

const list = (values: readonly string[]) => values.join('|');
const dateHelp = 'YYYY-MM-DD, today, tomorrow, +7d, +2w, +1m';

// The literal table, kept for the types it gives (InvoiceFlags); read it through `invoiceFields`.
const fieldTable = [
  {
    path: 'customer.name',
    flag: '--customer-name',
    valueName: '<name>',
    input: 'text',
    scope: 'both',
    help: 'customer name',
    prompt: { message: 'Customer name', group: 'required', order: 3 },
  },
  {
    path: 'customer.mobile',
    flag: '--customer-mobile',
    valueName: '<mobile>',
    input: 'text',
    scope: 'both',
    help: 'customer mobile number, e.g. +201012345678',
    prompt: { message: 'Customer mobile (e.g. +201012345678)', group: 'required', order: 4 },
  },
  {
    path: 'customer.email',
    flag: '--customer-email',
    valueName: '<email>',
    input: 'text',
    scope: 'both',
    help: 'customer e-mail (required with --method EMAIL or BOTH)',
    prompt: {
      message: 'Customer e-mail',
      group: 'required',
      order: 5,
      when: (answers) => notifiesByEmail(answers.communicationMethod),
    },
  },
  {
    path: 'amount',
    flag: '--amount',
    valueName: '<amount>',
    input: 'number',
    scope: 'both',
    help: 'invoice total (default: the total of the items)',
    prompt: {
      message: 'Amount',
      group: 'required',
      order: 6,
      default: (answers) => {
        const total = itemsTotal(answers.items);
        return total === undefined ? undefined : String(fromMinorUnits(total));
      },
    },
  },
  {
    path: 'sendingDate',
    flag: '--sending-date',
    valueName: '<date>',
    input: 'date',
    scope: 'both',
    help: 'due date: YYYY-MM-DD, today, tomorrow, +7d, +2w, +1m',
    prompt: { message: `Sending (due) date (${dateHelp})`, group: 'required', order: 7, default: () => 'today' },
  },
  {
    path: 'expiryDate',
    flag: '--expiry-date',
    valueName: '<date>',
    input: 'date',
    scope: 'both',
    help: 'expiry: a date (end of that day, in your time zone), an ISO instant, or +30d (from the sending date) ...',
    prompt: { message: `Expiry date (${dateHelp})`, group: 'required', order: 9, default: () => '+30d' },
  },
  {
    path: 'releaseDate',
    flag: '--release-date',
    valueName: '<date>',
    input: 'date',
    scope: 'both',
    help: 'issue date: a date (start of that day, in your time zone), an ISO instant, or today ...',
    prompt: {
      message: `Release date (${dateHelp})`,
      group: 'required',
      order: 8,
      default: (answers) => (typeof answers.sendingDate === 'string' ? answers.sendingDate : 'today'),
    },
  },
  {
    path: 'businessReference',
    flag: '--business-reference',
    valueName: '<ref>',
    input: 'text',
    scope: 'both',
    help: 'your reference; unique per amount and sending date',
    prompt: { message: 'Business reference', group: 'optional', order: 2, label: 'business reference' },
  },
  {
    path: 'note',
    flag: '--note',
    valueName: '<text>',
    input: 'text',
    scope: 'both',
    help: 'what the customer pays for',
    prompt: { message: 'Note (what the customer pays for)', group: 'required', order: 10 },
  },
  {
    path: 'communicationLang',
    flag: '--lang',
    valueName: '<lang>',
    input: 'choice',
    scope: 'both',
    values: communicationLangs,
    help: `notification language: ${list(communicationLangs)} (default en-gb)`,
    prompt: {
      message: 'Language of the notification',
      group: 'optional',
      order: 3,
      label: 'language',
      default: () => 'en-gb',
    },
  },
  {
    path: 'communicationMethod',
    flag: '--method',
    valueName: '<method>',
    input: 'choice',
    scope: 'both',
    values: communicationMethods,
    help: `notify by: ${list(communicationMethods)} (default SMS)`,
    prompt: {
      message: 'Notify the customer by',
      group: 'optional',
      order: 1,
      label: 'notification method',
      default: () => 'SMS',
    },
  },
  {
    path: 'alertMerchantUponExpiry',
    flag: '--alert-on-expiry',
    input: 'yes-no',
    scope: 'both',
    help: 'e-mail me when the invoice expires',
    prompt: { message: 'E-mail me when the invoice expires?', group: 'optional', order: 7, label: 'expiry alert' },
  },
  {
    path: 'paymentType',
    flag: '--payment-type',
    valueName: '<type>',
    input: 'choice',
    scope: 'single',
    values: paymentTypes,
    help: list(paymentTypes),
    prompt: { message: 'Payment type', group: 'optional', order: 4, label: 'payment type' },
  },
  {
    path: 'taxes',
    flag: '--taxes',
    valueName: '<percent>',
    input: 'text',
    scope: 'both',
    help: 'taxes percentage, 0 to 100',
    prompt: { message: 'Taxes (percentage, 0 to 100)', group: 'optional', order: 5, label: 'taxes' },
  },
  {
    path: 'preferredPaymentMethod',
    flag: '--preferred-payment-method',
    valueName: '<method>',
    input: 'text',
    scope: 'both',
    suggestions: knownPaymentMethods,
    help: `${knownPaymentMethods.join(', ')}, or another allowed method`,
    prompt: {
      message: `Preferred payment method (${knownPaymentMethods.join(', ')}, ...)`,
      group: 'optional',
      order: 6,
      label: 'preferred payment method',
    },
  },
  {
    path: 'items',
    flag: '--item',
    valueName: '<spec>',
    input: 'items',
    scope: 'both',
    help: {
      single: 'a line item, repeatable: code=SKU1,qty=2,price=10.50,en=Shirt,ar=قميص[,discount=5]',
      recurring: 'a line item, repeatable: code=SKU1,qty=2,price=10.50,en=Shirt,ar=قميص',
    },
  },
  {
    path: 'cycleType',
    flag: '--cycle-type',
    valueName: '<type>',
    input: 'choice',
    scope: 'recurring',
    values: cycleTypes,
    help: `repeat unit: ${list(cycleTypes)}`,
    prompt: { message: 'Cycle type (how the invoice repeats)', group: 'required', order: 1 },
  },
  {
    path: 'cycleValue',
    flag: '--cycle-value',
    valueName: '<n>',
    input: 'number',
    scope: 'recurring',
    help: 'repeat every n units (at least 1)',
    prompt: { message: 'Cycle value (repeat every how many months or weeks)', group: 'required', order: 2 },
  },
  {
    path: 'discount.value',
    flag: '--discount-value',
    valueName: '<n>',
    input: 'number',
    scope: 'recurring',
    help: 'discount of the invoice (a whole number)',
    prompt: {
      message: 'Discount value (a whole number; 0 for none)',
      group: 'required',
      order: 12,
      default: () => '0',
    },
  },
  {
    path: 'discount.type',
    flag: '--discount-type',
    valueName: '<type>',
    input: 'choice',
    scope: 'recurring',
    values: discountTypes,
    help: `discount type: ${list(discountTypes)}`,
    prompt: { message: 'Discount type', group: 'required', order: 11 },
  },
] as const satisfies readonly InvoiceField[];

/** Every field of the single and recurring requests, in the order `--help` lists their flags. */
export const invoiceFields: readonly InvoiceField[] = fieldTable;

/** `--customer-name` -> `customerName`, the name commander gives the flag's value. */
type OptionName<Flag extends string> = Flag extends `--${infer Name}` ? CamelCase<Name> : never;
type CamelCase<Name extends string> = Name extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Name;
type FlagValue<Input extends FieldInput> = Input extends 'yes-no' ? boolean : Input extends 'items' ? string[] : string;

/** The invoice flags as commander hands them over, inferred from `invoiceFields`. */
export type InvoiceFlags = {
  -readonly [Field in (typeof fieldTable)[number] as OptionName<Field['flag']>]?: FlagValue<Field['input']>;
};

/** The name commander gives a flag's value: `--customer-name` -> `customerName`. */
export function optionName(flag: string): string {
  return flag.replace(/^--/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** True when `field` belongs to invoices of `kind`. */
export function inScope(field: InvoiceField, kind: InvoiceKind): boolean {
  return field.scope === 'both' || field.scope === kind;
}

/** The fields of invoices of `kind`, in the order of `invoiceFields`. */
export function fieldsOf(kind: InvoiceKind): InvoiceField[] {
  return invoiceFields.filter((field) => inScope(field, kind));
}

/** The help line of a field's flag for invoices of `kind`. */
export function helpOf(field: InvoiceField, kind: InvoiceKind): string {
  return typeof field.help === 'string' ? field.help : field.help[kind];
}

/** The field at a dotted request path (`customer.name`, `discount.value`), if one is described. */
export function fieldByPath(path: string): InvoiceField | undefined {
  return invoiceFields.find((field) => field.path === path);
}

/** The field a flag sets, by its name with or without the dashes (`--customer-name`, `customer-name`). */
export function fieldByFlagName(name: string): InvoiceField | undefined {
  const flag = name.startsWith('--') ? name : `--${name}`;
  return invoiceFields.find((field) => field.flag === flag);
}

/**
 * The value a field takes from text a merchant typed (a flag, a prompt, a cell of a table), before the schema checks
 * it: a number is read exactly from its digits where it plainly is one; anything else stays as typed, so the schema
 * reports it with its own message. Dates are put in their wire shape later, with the others (normalizeDates).
 */
export function valueFromText(field: InvoiceField, text: string): unknown {
  return field.input === 'number' ? numberOrText(text) : text;
}
