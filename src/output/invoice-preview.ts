import type { ChalkInstance } from 'chalk';
import type { Invoice, InvoiceKind } from '../schemas/invoice.js';
import { itemTotalMinor, minorToText } from '../schemas/money.js';
import { formatAmount, formatDecimal } from './format.js';

/** The invoice as the merchant checks it before sending: customer, items, discounts, taxes, total, channel, dates. */
export function renderInvoicePreview(kind: InvoiceKind, invoice: Invoice, chalk: ChalkInstance): string {
  const { customer } = invoice;
  const contact = [customer.mobile, customer.email].filter(Boolean).join(', ');
  const lines = [chalk.bold(`${kind === 'single' ? 'Single' : 'Recurring'} invoice for ${customer.name} (${contact})`)];
  const row = (label: string, value: string) => lines.push(`  ${chalk.dim(label.padEnd(13))}${value}`);

  if (invoice.items && invoice.items.length > 0) {
    const table = invoice.items.map((item) => {
      const discount = 'discount' in item && item.discount ? item.discount.value : 0;
      return [
        item.itemCode,
        String(item.purchasedQuantity),
        formatAmount(item.price),
        discount ? formatAmount(discount) : '-',
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
  if ('cycleType' in invoice && invoice.cycleType) {
    row('Repeats', `every ${invoice.cycleValue} ${invoice.cycleType === 'MONTH' ? 'month(s)' : 'week(s)'}`);
    row(
      'Discount',
      invoice.discount.type === 'PERCENTAGE'
        ? `${invoice.discount.value}%`
        : `${formatAmount(invoice.discount.value)} flat`,
    );
  }
  // The amount is the invoice total the customer pays (rule 2.3.1); taxes are the part of it that is tax.
  if (invoice.taxes !== undefined) row('Taxes', `${invoice.taxes}% (included in the total)`);
  row('Total', chalk.bold(formatAmount(invoice.amount)));
  row(
    'Notification',
    `${invoice.communicationMethod ?? 'SMS'} in ${invoice.communicationLang ?? 'en-gb'}${invoice.alertMerchantUponExpiry ? ', and e-mail me on expiry' : ''}`,
  );
  if ('paymentType' in invoice && invoice.paymentType) row('Payment', invoice.paymentType);
  if (invoice.preferredPaymentMethod) row('Pay with', invoice.preferredPaymentMethod);
  row('Sending date', invoice.sendingDate);
  row('Release', invoice.releaseDate);
  row('Expires', invoice.expiryDate);
  if (invoice.businessReference) row('Reference', invoice.businessReference);
  row('Note', invoice.note);
  return lines.join('\n');
}
