import type { CsvFlags } from '../../bulk/csv-options.js';
import type { BulkFlags } from '../../bulk/options.js';
import type { GlobalOptions } from '../../context.js';
import type { InvoiceFlags } from '../../input/field-descriptions.js';
import type { EncodingName } from '../../input/text-encoding.js';

/** What `einvoice create single|recurring` is given: the global options, the invoice's, the bulk run's and a CSV file's flags. */
export interface CreateOptions extends GlobalOptions, InvoiceFlags, BulkFlags, CsvFlags {
  file?: string;
  dropUnknownFields?: boolean;
  encoding?: EncodingName;
  yes?: boolean;
  dryRun?: boolean;
  save?: string;
  printCommand?: boolean;
}
