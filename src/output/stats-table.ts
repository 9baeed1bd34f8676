import type { ChalkInstance } from 'chalk';
import type { Statistics, StatisticsGroup } from '../schemas/statistics.js';
import { formatAmount, formatCount } from './format.js';

const rows: ReadonlyArray<{ group: StatisticsGroup; label: string; paint: (chalk: ChalkInstance) => ChalkInstance }> = [
  { group: 'allInvoices', label: 'All', paint: (chalk) => chalk.bold },
  { group: 'paidInvoices', label: 'Paid', paint: (chalk) => chalk.green },
  { group: 'unpaidInvoices', label: 'Unpaid', paint: (chalk) => chalk.yellow },
  { group: 'expiredInvoices', label: 'Expired', paint: (chalk) => chalk.red },
  { group: 'refundedInvoices', label: 'Refunded', paint: (chalk) => chalk.magenta },
  { group: 'canceledInvoices', label: 'Canceled', paint: (chalk) => chalk.gray },
];

const barWidth = 20;
const eighths = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of `share` (0 to 1) of `barWidth` cells, drawn in eighths of a block. */
export function shareBar(share: number): string {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(share) ? share : 0));
  const totalEighths = Math.round(clamped * barWidth * 8);
  const full = Math.floor(totalEighths / 8);
  const bar = '█'.repeat(full) + (eighths[totalEighths % 8] ?? '');
  return bar.padEnd(barWidth, ' ');
}

/**
 * The statistics as a table: group, count, amount, and a bar of each group's share of all invoices' amount; the
 * amount's column names the merchant's currency when the profile gives one.
 */
export function renderStatsTable(statistics: Statistics, chalk: ChalkInstance, currency?: string): string {
  const total = statistics.allInvoices.totalAmount;
  const cells = rows.map(({ group, label, paint }) => {
    const { totalCount, totalAmount } = statistics[group];
    const share = total > 0 ? totalAmount / total : 0;
    return { label, paint, count: formatCount(totalCount), amount: formatAmount(totalAmount), share };
  });
  const countWidth = Math.max(5, ...cells.map((cell) => cell.count.length));
  const amountTitle = currency ? `Amount ${currency}` : 'Amount';
  const amountWidth = Math.max(amountTitle.length, ...cells.map((cell) => cell.amount.length));
  const header = `${'Invoices'.padEnd(10)}  ${'Count'.padStart(countWidth)}  ${amountTitle.padStart(amountWidth)}  Share of amount`;
  const lines = cells.map(({ label, paint, count, amount, share }) => {
    const percent = `${Math.round(share * 100)}%`.padStart(4);
    return `${paint(chalk)(label.padEnd(10))}  ${count.padStart(countWidth)}  ${amount.padStart(amountWidth)}  ${paint(chalk)(shareBar(share))} ${percent}`;
  });
  return [chalk.dim(header), ...lines].join('\n');
}
