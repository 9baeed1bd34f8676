import { rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { quote } from 'shell-quote';
import { draftFile, isDraftFile } from '../../config/paths.js';
import type { CommandContext } from '../../context.js';
import { toJson } from '../../output/format.js';
import type { Terminal } from '../../output/terminal.js';
import type { InvoiceKind } from '../../schemas/invoice.js';
import type { CreateOptions } from './flags.js';
import { makePrivateFolder, writePrivateFile } from '../../private-file.js';

// The draft of what the merchant typed at the prompts: kept when a run that asked stops short of creating the
// invoice, continued with --file, and removed once its invoice is created.

/** The draft of one run: where an earlier run's draft is continued from, and how to keep this run's answers. */
export interface Draft {
  /** The draft file this run continues, if --file names one. */
  continued?: string;
  /** Writes `answers` to the draft file and says how to continue; never fails the run. */
  keep(answers: Record<string, unknown>): Promise<void>;
  /** Removes the continued draft, once its invoice is created. */
  done(): Promise<void>;
}

/** The draft of a `create` run; says so when --file is a draft of an earlier run. */
export function openDraft(
  kind: InvoiceKind,
  options: Pick<CreateOptions, 'env' | 'config' | 'file'>,
  context: CommandContext,
  terminal: Terminal,
  now: Date,
): Draft {
  const given = options.file && options.file !== '-' ? resolve(context.cwd, options.file) : undefined;
  const continued = given && isDraftFile(given, context.env) ? given : undefined;
  if (continued) {
    terminal.info(
      `${options.file} is a draft of answers typed at the prompts of an earlier run; it is removed once the invoice is created.`,
    );
  }
  return {
    continued,
    // Continuing a draft that fails again keeps it in the same file.
    keep: async (answers) => {
      const path = continued ?? draftFile(kind, context.env, now);
      const again = [
        'einvoice',
        ...(options.env ? ['--env', options.env] : []),
        ...(options.config ? ['--config', options.config] : []),
        'create',
        kind,
        '--file',
        path,
      ];
      try {
        await makePrivateFolder(dirname(path));
        await writePrivateFile(path, `${toJson(answers)}\n`);
        terminal.info(`Your answers are saved in ${path}\nContinue with: ${quote(again)}`);
      } catch {
        // Keeping the draft is a courtesy: the error being reported matters more than this one.
      }
    },
    done: async () => {
      if (continued) await rm(continued, { force: true });
    },
  };
}
