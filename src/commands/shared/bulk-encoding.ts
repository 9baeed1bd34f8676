import { lookInLikelyEncoding, type BulkRequest } from '../../bulk/index.js';
import { UsageError, type FieldIssue } from '../../errors.js';
import { secondLookWords, undecodableMessage } from '../../input/encoding-messages.js';
import type { UndecodableBytes } from '../../input/text-encoding.js';
import { groupedFindings } from '../../output/findings.js';
import { unreadableTextMessage } from '../../schemas/fields.js';
import type { RecordFinding } from '../../sheet/index.js';

// A file read in the wrong encoding is refused whole, and the merchant saves it again (or names its encoding): the
// refusal lists the problems the file has read in the encoding it most likely is in, its header's or its records',
// so the encoding, the header and the rows take one run to correct, not three.

/**
 * The refusal of the request's file, its bytes not text in the encoding read (`found`), after its records were
 * checked as read (`asRead`: where those bytes landed, and their other problems).
 */
export async function refusedForItsEncoding(
  request: BulkRequest,
  found: UndecodableBytes,
  asRead: readonly RecordFinding[],
): Promise<UsageError> {
  const { input } = request;
  const { problem, hint } = undecodableMessage(found, `--file ${input.name}`, input.format === 'csv');
  const refused = new UsageError(`${problem}; nothing was sent.`, { issues: groupedFindings(asRead), hint });
  // Where the bytes landed (rows 2-300, column customer.name) tells what was misread, whatever else is told.
  const landed = groupedFindings(asRead.filter((finding) => finding.message === unreadableTextMessage));
  return withSecondLook(request, refused, found, landed);
}

/**
 * `refused` listing the problems of the request's file read in the encoding `found` most likely is (after `landed`,
 * where its bytes landed as read), and saying so; as it is when that encoding cannot be named, or the file read
 * again (stdin).
 */
export async function withSecondLook(
  request: BulkRequest,
  refused: UsageError,
  found: UndecodableBytes,
  landed: FieldIssue[] = [],
): Promise<UsageError> {
  const look = await lookInLikelyEncoding(request, found);
  if (!look) return refused;
  const records = groupedFindings(look.issues);
  const said = secondLookWords(look.encoding, look.header.length, records.length, landed.length > 0);
  const issues = [...landed, ...look.header, ...records];
  return new UsageError(refused.message, { issues, hint: [refused.hint, said].filter(Boolean).join(' ') });
}
