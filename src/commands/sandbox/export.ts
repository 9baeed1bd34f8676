import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { sandboxStateFile } from '../../config/paths.js';
import type { CommandContext } from '../../context.js';
import { LocalFileError, UsageError } from '../../errors.js';
import { builtInSandboxRemedies } from '../../service-connection.js';
import { openSession } from '../../session.js';
import type { ExportOptions } from './flags.js';

/** `einvoice sandbox export [--state FILE]`: prints the whole state of the built-in sandbox, or of FILE, as JSON. */
export async function exportSandbox(options: ExportOptions, context: CommandContext): Promise<void> {
  const { profile } = await openSession(options, context);
  const file = options.state === undefined ? undefined : resolve(context.cwd, options.state);
  if (file !== undefined && !existsSync(file)) {
    throw new UsageError(`There is no sandbox state file ${file}.`, {
      hint: 'Give the file of sandbox serve --state.',
    });
  }
  if (file === undefined && !profile.isEmbeddedSandbox) {
    throw new UsageError(`The ${profile.name} environment is not the built-in sandbox, whose state this prints.`, {
      hint: 'For a sandbox served with --state FILE, run: einvoice sandbox export --state FILE',
    });
  }
  const { exportSandboxState } = await import('../../sandbox/index.js');
  await exportSandboxState({
    stateFile: file ?? sandboxStateFile(context.env),
    // A built-in sandbox used for the first time starts as every other command would start it.
    demo: file === undefined,
    write: (text) => write(context.stdout, text),
  }).catch((error: unknown) => {
    // `sandbox export | head` has what it wanted: the rest is not read.
    if (error instanceof ReaderGone) return;
    if (!(error instanceof LocalFileError)) throw error;
    throw error.withRemedies(
      file === undefined ? builtInSandboxRemedies(error, context.env) : ['Or give --state another file.'],
    );
  });
}

/** The reader of stdout closed it. */
class ReaderGone extends Error {}

/** Writes `text`, waiting while the reader is behind. */
function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => {
      const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
      if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED') reject(new ReaderGone());
      else if (error) reject(error);
      else resolve();
    });
  });
}
