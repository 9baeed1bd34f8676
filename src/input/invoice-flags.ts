import { quote } from 'shell-quote';
import type { FieldIssue } from '../errors.js';
import type { Invoice, InvoiceKind } from '../schemas/invoice.js';
import { withDateForms } from './dates.js';
import { formatItemSpec, numberOrText, parseItemSpec } from './item-spec.js';

/** The invoice flags as commander hands them over (every value is text; --item is repeatable). */
export interface InvoiceFlags {
  customerName?: string;
  customerMobile?: string;
  customerEmail?: string;
  amount?: string;
  sendingDate?: string;
  expiryDate?: string;
  releaseDate?: string;
  businessReference?: string;
  note?: string;
  lang?: string;
  method?: string;
  alertOnExpiry?: boolean;
  paymentType?: string;
  taxes?: string;
  preferredPaymentMethod?: string;
  item?: string[];
  cycleType?: string;
  cycleValue?: string;
  discountValue?: string;
  discountType?: string;
}

/** Each flag, the request field it sets, and the kinds of invoice it belongs to. */
export const invoiceFlagFields: ReadonlyArray<{
  flag: string;
  option: keyof InvoiceFlags;
  path: string;
  kinds: readonly InvoiceKind[];
}> = [
  { flag: '--customer-name', option: 'customerName', path: 'customer.name', kinds: ['single', 'recurring'] },
  { flag: '--customer-mobile', option: 'customerMobile', path: 'customer.mobile', kinds: ['single', 'recurring'] },
  { flag: '--customer-email', option: 'customerEmail', path: 'customer.email', kinds: ['single', 'recurring'] },
  { flag: '--amount', option: 'amount', path: 'amount', kinds: ['single', 'recurring'] },
  { flag: '--sending-date', option: 'sendingDate', path: 'sendingDate', kinds: ['single', 'recurring'] },
  { flag: '--expiry-date', option: 'expiryDate', path: 'expiryDate', kinds: ['single', 'recurring'] },
  { flag: '--release-date', option: 'releaseDate', path: 'releaseDate', kinds: ['single', 'recurring'] },
  {
    flag: '--business-reference',
    option: 'businessReference',
    path: 'businessReference',
    kinds: ['single', 'recurring'],
  },
  { flag: '--note', option: 'note', path: 'note', kinds: ['single', 'recurring'] },
  { flag: '--lang', option: 'lang', path: 'communicationLang', kinds: ['single', 'recurring'] },
  { flag: '--method', option: 'method', path: 'communicationMethod', kinds: ['single', 'recurring'] },
  {
    flag: '--alert-on-expiry',
    option: 'alertOnExpiry',
    path: 'alertMerchantUponExpiry',
    kinds: ['single', 'recurring'],
  },
  { flag: '--payment-type', option: 'paymentType', path: 'paymentType', kinds: ['single'] },
  { flag: '--taxes', option: 'taxes', path: 'taxes', kinds: ['single', 'recurring'] },
  {
    flag: '--preferred-payment-method',
    option: 'preferredPaymentMethod',
    path: 'preferredPaymentMethod',
    kinds: ['single', 'recurring'],
  },
  { flag: '--item', option: 'item', path: 'items', kinds: ['single', 'recurring'] },
  { flag: '--cycle-type', option: 'cycleType', path: 'cycleType', kinds: ['recurring'] },
  { flag: '--cycle-value', option: 'cycleValue', path: 'cycleValue', kinds: ['recurring'] },
  { flag: '--discount-value', option: 'discountValue', path: 'discount.value', kinds: ['recurring'] },
  { flag: '--discount-type', option: 'discountType', path: 'discount.type', kinds: ['recurring'] },
];

/** Names the flag of a field path in messages: `customer.name (--customer-name)`. */
export function withFlagName(issue: FieldIssue): FieldIssue {
  if (issue.path === 'discount') return { ...issue, path: 'discount (--discount-value, --discount-type)' };
  // A missing customer is one issue at `customer`; it still has to say which flags give it.
  if (issue.path === 'customer') return { ...issue, path: 'customer (--customer-name, --customer-mobile)' };
  const entry = invoiceFlagFields.find(
    (field) => issue.path === field.path || (field.option === 'item' && issue.path.startsWith('items[')),
  );
  const { message } = withDateForms(issue);
  return entry ? { path: `${issue.path} (${entry.flag})`, message } : { ...issue, message };
}

/**
 * Turns the flags into a partial request of the wire shape. Values stay as typed where they are not plainly
 * numbers, so the schema reports them; a malformed --item is reported here, with its position.
 */
export function invoiceFromFlags(flags: InvoiceFlags): { invoice: Record<string, unknown>; issues: FieldIssue[] } {
  const invoice: Record<string, unknown> = {};
  const issues: FieldIssue[] = [];
  const set = (path: string, value: unknown) => {
    if (value === undefined) return;
    const [head, tail] = path.split('.') as [string, string | undefined];
    if (tail === undefined) invoice[head] = value;
    else invoice[head] = { ...((invoice[head] as object | undefined) ?? {}), [tail]: value };
  };
  const number = (value: string | undefined) => (value === undefined ? undefined : numberOrText(value));

  set('customer.name', flags.customerName);
  set('customer.mobile', flags.customerMobile);
  set('customer.email', flags.customerEmail);
  set('amount', number(flags.amount));
  set('sendingDate', flags.sendingDate);
  set('expiryDate', flags.expiryDate);
  set('releaseDate', flags.releaseDate);
  set('businessReference', flags.businessReference);
  set('note', flags.note);
  set('communicationLang', flags.lang);
  set('communicationMethod', flags.method);
  set('alertMerchantUponExpiry', flags.alertOnExpiry);
  set('paymentType', flags.paymentType);
  set('taxes', flags.taxes);
  set('preferredPaymentMethod', flags.preferredPaymentMethod);
  set('cycleType', flags.cycleType);
  set('cycleValue', number(flags.cycleValue));
  set('discount.value', number(flags.discountValue));
  set('discount.type', flags.discountType);
  if (flags.item && flags.item.length > 0) {
    invoice.items = flags.item.map((spec, position) => {
      const parsed = parseItemSpec(spec, position);
      issues.push(...parsed.issues);
      return parsed.item;
    });
  }
  return { invoice, issues };
}

/** The flag-only command line that creates `invoice` again (for --print-command), quoted for a POSIX shell. */
export function toCommandLine(kind: InvoiceKind, invoice: Invoice, environment?: string): string {
  const args = ['einvoice', 'create', kind];
  if (environment) args.push('--env', environment);
  for (const { flag, path, kinds } of invoiceFlagFields) {
    if (!kinds.includes(kind)) continue;
    const value = path
      .split('.')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], invoice);
    if (value === undefined) continue;
    if (flag === '--item') {
      for (const item of value as Parameters<typeof formatItemSpec>[0][]) args.push('--item', formatItemSpec(item));
    } else if (flag === '--alert-on-expiry') {
      args.push(value === true ? '--alert-on-expiry' : '--no-alert-on-expiry');
    } else {
      args.push(flag, String(value));
    }
  }
  return quote(args);
}
