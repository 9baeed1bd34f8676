import { randomUUID } from 'node:crypto';
import { ledgerFile } from '../../config/paths.js';
import type { CommandContext, GlobalOptions } from '../../context.js';
import { LocalFileError, OutcomeUnknownError, ServiceRejectedError } from '../../errors.js';
import type { InvoiceEntry, LedgerSource, RefundEntry } from '../../ledger/entries.js';
import { LedgerRecorder } from '../../ledger/recorder.js';
import { inGithubActions, workflowCommand } from '../../output/github-actions.js';
import { targetOf } from '../../bulk/index.js';
import type { Session } from '../../session.js';
import type { AnswerFacts } from '../../api/client.js';

// How the commands that send keep the merchant's ledger: where it is, whether it is on, and the one warning a run
// gives when it cannot be written. Sending never waits on it and never fails for it.

/** The ledger file of the session's environment, or undefined when the ledger is off (profile or --no-ledger). */
export function ledgerFileOf(
  session: Session,
  options: Pick<GlobalOptions, 'ledger'>,
  context: CommandContext,
): string | undefined {
  if (options.ledger === false || !session.profile.ledger) return undefined;
  return ledgerFile(session.profile.name, context.env);
}

/** The service requests of this session go to, as the ledger (and a journal) names it. */
export function serviceOf(session: Session, context: CommandContext): string {
  return targetOf(session.profile, context.env).service;
}

/**
 * Starts recording to the session's ledger, when it is on. `repair` says how what was not recorded can be brought in
 * later (the journal to import), for the warning.
 */
export function startRecording(
  session: Session,
  options: Pick<GlobalOptions, 'ledger'>,
  context: CommandContext,
  repair: string,
): LedgerRecorder | undefined {
  const file = ledgerFileOf(session, options, context);
  if (!file) return undefined;
  return new LedgerRecorder(file, (error) => {
    // A LocalFileError names the file itself; say it once.
    const why =
      error instanceof LocalFileError
        ? `${error.message.replace(/\.$/, '')}, so it could not be written:`
        : `The ledger ${file} could not be written (${error.message.replace(/\.$/, '')}):`;
    const text = `${why} what was sent is not recorded there. ${repair}`;
    session.terminal.warn(text);
    if (inGithubActions(context.env))
      context.stderr.write(`${workflowCommand('warning', { title: 'einvoice ledger' }, text)}\n`);
  });
}

/** The answer to one create or refund, as the ledger records it; undefined when nothing reached the service. */
export function answerOf(error: unknown): { status: 'uncertain' | 'refused'; error: string } | undefined {
  if (error instanceof OutcomeUnknownError) return { status: 'uncertain', error: error.message };
  if (error instanceof ServiceRejectedError) return { status: 'refused', error: error.message };
  // Ctrl-C after the request reached the service: the interruption says so in these words (sendOnce).
  if (error instanceof Error && /^Interrupted after the request reached the service/.test(error.message)) {
    return { status: 'uncertain', error: error.message };
  }
  return undefined;
}

/**
 * Sends one create or refund with `send`, then records its answer in the ledger (an error the service never saw
 * records nothing); the send's own result or error is what the command goes on with.
 */
export async function sentAndRecorded<T>(
  recorder: LedgerRecorder | undefined,
  send: () => Promise<T>,
  entryOf: (answer: { status: 'answered'; result: T } | { status: 'uncertain' | 'refused'; error: string }) => OneEntry,
): Promise<T> {
  const sentAt = new Date().toISOString();
  try {
    const result = await send();
    const { sandboxState } = (result ?? {}) as AnswerFacts;
    recorder?.add(withKey(entryOf({ status: 'answered', result }), sentAt, sandboxState));
    return result;
  } catch (error) {
    const answer = answerOf(error);
    if (answer) recorder?.add(withKey(entryOf(answer), sentAt));
    throw error;
  } finally {
    await recorder?.finish();
  }
}

/** An entry of one request, before its key and instant are given. */
export type OneEntry = Omit<InvoiceEntry, 'key' | 'sentAt'> | Omit<RefundEntry, 'key' | 'sentAt'>;

function withKey(entry: OneEntry, sentAt: string, sandboxState?: string): InvoiceEntry | RefundEntry {
  return {
    ...entry,
    key: `one:${randomUUID()}`,
    sentAt,
    ...(sandboxState !== undefined ? { sandboxState } : {}),
  } as InvoiceEntry | RefundEntry;
}

/** Where one request came from: the prompts when they asked, else its file, else its flags. */
export function sourceOfOne(file: string | undefined, asked: boolean): LedgerSource {
  return { via: asked ? 'prompts' : file !== undefined ? 'file' : 'flags', ...(file !== undefined ? { file } : {}) };
}
