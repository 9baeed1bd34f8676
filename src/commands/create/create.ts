import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readInvoiceFile } from '../../sheet/index.js';
import { bulkFlagsGiven, csvFlagsGiven, sheetsOfFlag } from '../shared/bulk-flags.js';
import type { InvoiceKind } from '../../schemas/invoice.js';
import { openSession } from '../../session.js';
import type { CreateOptions } from './flags.js';

/**
 * `einvoice create single|recurring`: a file of many invoices (a JSON array, NDJSON or CSV) goes to bulk creation; one
 * invoice, from a file, flags or prompts, to the one-invoice flow. Each is imported only when it runs.
 */
export async function createInvoices(
  kind: InvoiceKind,
  options: CreateOptions,
  context: CommandContext,
): Promise<void> {
  const session = await openSession(options, context);
  if (options.format !== undefined && !options.file) {
    throw new UsageError('--format applies only to --file; nothing was sent.', {
      hint: 'It says how to read the file: --file invoices.txt --format csv (or ndjson, json).',
    });
  }
  if (options.encoding !== undefined && !options.file) {
    throw new UsageError('--encoding applies only to --file; nothing was sent.', {
      hint: 'It names the encoding the file was saved in: --file invoices.csv --encoding windows-1256.',
    });
  }
  const input = options.file
    ? await readInvoiceFile(options.file, context, options.format, options.encoding)
    : undefined;
  const misplaced = csvFlagsGiven(options, input?.kind === 'many' ? input.format : undefined);
  if (misplaced.length > 0) throw misplacedSheetFlags(misplaced);
  if (input?.kind === 'many') {
    const { bulkCreateOf, createInvoicesInBulk } = await import('./bulk.js');
    return createInvoicesInBulk(bulkCreateOf(kind, options, session.profile), session, input, context);
  }
  const bulkOnly = bulkFlagsGiven(options);
  if (bulkOnly.length > 0) {
    throw new UsageError(
      `${bulkOnly.join(', ')} ${applies(bulkOnly)} only to a --file of many invoices; nothing was sent.`,
      {
        hint: 'Give --file a JSON array of invoices, NDJSON (one invoice per line) or a CSV sheet.',
      },
    );
  }
  const { createOneInvoice } = await import('./create-invoice.js');
  return createOneInvoice(kind, options, session, input?.value, context);
}

/** The refusal of flags of reading a sheet given for a file they do not apply to, in the words of the sheets they do. */
function misplacedSheetFlags(flags: string[]): UsageError {
  const only = (sheet: string) => flags.filter((flag) => sheetsOfFlag(flag).join() === sheet);
  if (only('xlsx').length > 0) {
    return new UsageError(
      `${only('xlsx').join(', ')} ${applies(only('xlsx'))} only to an .xlsx --file; nothing was sent.`,
      {
        hint: 'A file ending in .xlsx is read as a workbook, and --format xlsx reads any --file as one.',
      },
    );
  }
  if (only('csv').length > 0) {
    return new UsageError(`${only('csv').join(', ')} ${applies(only('csv'))} only to a CSV --file; nothing was sent.`, {
      hint: 'A file ending in .csv is read as CSV, and --format csv reads any --file (or stdin) as CSV.',
    });
  }
  return new UsageError(
    `${flags.join(', ')} ${applies(flags)} only to a sheet, a CSV or .xlsx --file; nothing was sent.`,
    {
      hint: 'A file ending in .csv or .xlsx is read as a sheet, and --format csv (or xlsx) reads any --file as one.',
    },
  );
}

function applies(flags: string[]): string {
  return flags.length === 1 ? 'applies' : 'apply';
}
