import { UsageError, type FieldIssue } from '../errors.js';
import type { EncodingName, UndecodableBytes } from '../input/text-encoding.js';
import { HeaderError, recordsOf, type ManyInvoices, type RecordFinding, type SheetOptions } from '../sheet/index.js';
import type { BulkKind } from './kind.js';
import { planBatch, type Shard } from './plan.js';

// A file read in the wrong encoding is refused whole; its other problems (a column no field names, a bad date) are
// those of the encoding it most likely is in, which the merchant reads it in next. The file is read again in that
// encoding and checked as a dry run would, so one run tells the encoding, the header and the rows at once.

/** What a file would hold read in the encoding it most likely is in. */
export interface SecondLook {
  encoding: EncodingName;
  /** The header's problems (then no row was read). */
  header: FieldIssue[];
  /** Every problem of every record, placed as the run places them. */
  issues: RecordFinding[];
}

/** What of a run's request (BulkRequest) a second look reads. */
export interface LookRequest {
  input: ManyInvoices;
  sheet: SheetOptions;
  shard?: Shard;
  kind: BulkKind;
  now: Date;
  signal?: AbortSignal;
}

/** The encoding an input read wrong most likely is in, when it can be named. */
export function likelyEncoding(found: UndecodableBytes): EncodingName | undefined {
  return found.likely === 'windows-1256' || found.likely === 'utf-8' ? found.likely : undefined;
}

/**
 * The request's file read again in the encoding `found` most likely is, and checked as a dry run of the request
 * would check it (at its clock, against no journal); undefined for stdin, or an encoding that cannot be named.
 */
export async function lookInLikelyEncoding(
  request: LookRequest,
  found: UndecodableBytes,
): Promise<SecondLook | undefined> {
  const encoding = likelyEncoding(found);
  if (!encoding || !request.input.reread) return undefined;
  try {
    return { encoding, header: [], issues: await problemsOf(request, encoding) };
  } catch (error) {
    if (!(error instanceof UsageError) || error.issues.length === 0) return undefined;
    // A header whose only problem is columns that are no field: the rows are read without them, so one run tells
    // both. Any other header is told alone (which column is which field is not known).
    const unknown = error instanceof HeaderError ? error.unknown : undefined;
    if (!unknown) return { encoding, header: error.issues, issues: [] };
    const ignoreColumns = [...(request.sheet.ignoreColumns ?? []), ...unknown.map((column) => column.header)];
    const issues = await problemsOf({ ...request, sheet: { ...request.sheet, ignoreColumns } }, encoding);
    // A field missing from every row for want of the column the header misnames is the header's problem, told once.
    const misnamed = new Set(unknown.map((column) => column.suggestion));
    const own = issues.filter((issue) => !(issue.message === 'is required' && misnamed.has(issue.field)));
    return { encoding, header: error.issues, issues: own };
  }
}

/** Every problem of every record of the request's file read in `encoding`, as a dry run checks them. */
async function problemsOf(request: LookRequest, encoding: EncodingName): Promise<RecordFinding[]> {
  const input = request.input.reread?.(encoding) as ManyInvoices;
  const source = await recordsOf(input, { ...request.sheet, columns: request.kind.columns });
  const plan = await planBatch({
    kind: request.kind.checking({ now: request.now, datesAt: request.now }),
    records: source.records,
    place: source.place,
    shard: request.shard,
    resendUncertain: false,
    signal: request.signal,
  });
  return plan.issues;
}

/**
 * The first bytes of an input that are not text in the encoding it is read in, read from its start to its end (a
 * refused header stops the reading before them); none for stdin, or a workbook, which is no text.
 */
export async function undecodableOf(request: Pick<LookRequest, 'input'>): Promise<UndecodableBytes | undefined> {
  const input = request.input.format === 'xlsx' ? undefined : request.input.reread?.();
  if (!input) return undefined;
  for await (const piece of input.open()) void piece;
  return input.undecodable();
}

/** A file refused as it was read, whose bytes are not text in the encoding read: `found` says where and what. */
export class WrongEncodingError extends UsageError {
  readonly found: UndecodableBytes;

  constructor(message: string, found: UndecodableBytes, options: ConstructorParameters<typeof UsageError>[1]) {
    super(message, options);
    this.found = found;
  }
}
