import type { BulkFlags } from '../../bulk/options.js';
import type { GlobalOptions } from '../../context.js';
import type { InvoiceFlags } from '../../input/invoice-fields.js';

/** What `einvoice create single|recurring` is given: the global options, the invoice's and the bulk run's flags. */
export interface CreateOptions extends GlobalOptions, InvoiceFlags, BulkFlags {
  file?: string;
  yes?: boolean;
  dryRun?: boolean;
  save?: string;
  printCommand?: boolean;
}
