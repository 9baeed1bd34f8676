import type { CsvFlags } from '../../bulk/csv-options.js';
import type { BulkFlags } from '../../bulk/options.js';
import type { GlobalOptions } from '../../context.js';
import type { InvoiceFlags } from '../../input/field-descriptions.js';
import type { EncodingName } from '../../input/text-encoding.js';
import type { AmountChoice } from '../../input/invoice-input.js';

/** What `einvoice create single|recurring` is given: the global options, the invoice's, the bulk run's and a CSV file's flags. */
export interface CreateOptions extends GlobalOptions, InvoiceFlags, BulkFlags, CsvFlags {
  file?: string;
  dropUnknownFields?: boolean;
  encoding?: EncodingName;
  yes?: boolean;
  /** Send an amount that differs from its items' total as given. */
  keepAmount?: boolean;
  /** Send the items' total instead of an amount that differs from it. */
  amountFromItems?: boolean;
  /** Refuse what has a warning (`--no-strict`: false; absent: the profile's `strict`). */
  strict?: boolean;
  dryRun?: boolean;
  save?: string;
  printCommand?: boolean;
}

/** The merchant's word on an amount that differs from its items' total: `--keep-amount` or `--amount-from-items`. */
export function amountChoiceOf(options: CreateOptions): AmountChoice | undefined {
  return options.keepAmount ? 'keep' : options.amountFromItems ? 'items' : undefined;
}
