import type { ChalkInstance } from 'chalk';
import type { Invoice, InvoiceKind } from '../schemas/invoice.js';
import { itemTotalMinor, minorToText } from '../schemas/money.js';
import { calendarDateIn } from '../schemas/time-zone.js';
import { formatAmount, formatDecimal } from './format.js';

/** How the preview speaks of money and time: the merchant's currency (shown, never sent) and time zone. */
export interface PreviewOptions {
  currency?: string;
  /** The zone whose days the dates named; the preview shows each instant there. */
  timeZone?: string;
}

/**
 * The invoice as the merchant checks it before sending: customer, items, discounts, taxes, amount, channel, dates.
 * It says what is sent and what the spec defines, nothing it does not (no total with taxes or a discount applied).
 */
export function renderInvoicePreview(
  kind: InvoiceKind,
  invoice: Invoice,
  chalk: ChalkInstance,
  options: PreviewOptions = {},
): string {
  const { customer } = invoice;
  const money = (amount: number) => withCurrency(formatAmount(amount), options.currency);
  const contact = [customer.mobile, customer.email].filter(Boolean).join(', ');
  const lines = [chalk.bold(`${kind === 'single' ? 'Single' : 'Recurring'} invoice for ${customer.name} (${contact})`)];
  const row = (label: string, value: string) => lines.push(`  ${chalk.dim(label.padEnd(13))}${value}`);

  if (invoice.items && invoice.items.length > 0) {
    const table = invoice.items.map((item) => {
      const discount = 'discount' in item && item.discount ? item.discount.value : 0;
      return [
        item.itemCode,
        String(item.purchasedQuantity),
        money(item.price),
        discount ? money(discount) : '-',
        formatDecimal(minorToText(itemTotalMinor(item))),
        `${item.nameEn} / ${item.nameAr}`,
      ];
    });
    const header = ['Code', 'Qty', 'Price', 'Discount', 'Total', 'Name'];
    const widths = header.map((title, column) =>
      Math.max(title.length, ...table.map((cells) => (cells[column] ?? '').length)),
    );
    const format = (cells: string[]) =>
      cells
        .map((cell, column) =>
          column === 0 || column === 5 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
        )
        .join('  ');
    lines.push(`  ${chalk.dim('Items')}`);
    lines.push(`    ${chalk.dim(format(header))}`);
    for (const cells of table) lines.push(`    ${format(cells)}`);
  }
  const recurring = 'cycleType' in invoice && invoice.cycleType ? invoice : undefined;
  if (recurring) {
    row('Repeats', `every ${recurring.cycleValue} ${recurring.cycleType === 'MONTH' ? 'month(s)' : 'week(s)'}`);
  }
  // The recurring discount is sent beside the amount; the spec does not say how the service applies it, so no
  // discounted total is made up here.
  const discount = recurring
    ? `, discount ${recurring.discount.type === 'PERCENTAGE' ? `${recurring.discount.value}%` : `${money(recurring.discount.value)} flat`}`
    : '';
  row('Amount', `${chalk.bold(money(invoice.amount))}${discount}`);
  // Taxes are sent as a percentage; the spec does not say whether the amount includes them.
  if (invoice.taxes !== undefined) row('Taxes', `${invoice.taxes} (%)`);
  row(
    'Notification',
    `${invoice.communicationMethod ?? 'SMS'} in ${invoice.communicationLang ?? 'en-gb'}${invoice.alertMerchantUponExpiry ? ', and e-mail me on expiry' : ''}`,
  );
  if ('paymentType' in invoice && invoice.paymentType) row('Payment', invoice.paymentType);
  if (invoice.preferredPaymentMethod) row('Pay with', invoice.preferredPaymentMethod);
  row('Sending date', invoice.sendingDate);
  row('Release', inZone(invoice.releaseDate, options.timeZone));
  row('Expires', inZone(invoice.expiryDate, options.timeZone));
  if (options.timeZone) row('Time zone', options.timeZone);
  if (invoice.businessReference) row('Reference', invoice.businessReference);
  row('Note', invoice.note);
  return lines.join('\n');
}

/** `499.00 EGP` with a currency, `499.00` without. */
export function withCurrency(amount: string, currency: string | undefined): string {
  return currency ? `${amount} ${currency}` : amount;
}

/** An instant as sent, and as the merchant's clock reads it: `2030-02-15T21:59:59.999Z (2030-02-15 23:59 Africa/Cairo)`. */
function inZone(instant: string, timeZone: string | undefined): string {
  if (!timeZone) return instant;
  const at = new Date(instant);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${instant} (${calendarDateIn(at, timeZone)} ${time.format(at)} ${timeZone})`;
}
