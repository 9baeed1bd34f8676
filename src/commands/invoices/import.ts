import { resolve } from 'node:path';
import { ledgerFile } from '../../config/paths.js';
import type { CommandContext } from '../../context.js';
import { UsageError, type FieldIssue } from '../../errors.js';
import { journalHeader, type JournalHeader } from '../../ledger/journal-import.js';
import { sentNoun } from '../../ledger/sent-records.js';
import { Ledger } from '../../ledger/ledger.js';
import { formatCount } from '../../schemas/number-text.js';
import { openSession } from '../../session.js';
import type { ImportOptions } from './flags.js';

/** A journal named on the command line, its first line read. */
interface Named {
  given: string;
  path: string;
  header: JournalHeader;
}

/**
 * `einvoice invoices import <journal>...`: the journals of bulk runs on other machines (CI shards) brought into the
 * ledger of the environment each names. Each journal is input from outside: every line is checked, and a problem in
 * any of them imports none. A record is keyed by its journal's id, so importing again adds nothing.
 */
export async function importJournals(journals: string[], options: ImportOptions, context: CommandContext) {
  const session = await openSession(options, context);
  const { terminal, profile } = session;
  // Every journal's first line is read before any is imported: a wrong file named among many imports none.
  const named = await Promise.all(journals.map((given) => namedJournal(given, context)));
  const off = named.find(
    ({ header }) => header.run.environment === profile.name && (!profile.ledger || options.ledger === false),
  );
  if (off) {
    throw new UsageError(
      `The ledger of ${profile.name} is off (ledger: false in the profile, or --no-ledger); nothing was imported.`,
    );
  }
  const ledgers = new Map<string, Ledger>();
  try {
    for (const { header } of named) {
      const environment = header.run.environment;
      if (!ledgers.has(environment)) {
        ledgers.set(environment, (await Ledger.open(ledgerFile(environment, context.env), { create: true })) as Ledger);
      }
    }
    const ledgerOf = (journal: Named) => ledgers.get(journal.header.run.environment) as Ledger;
    // Each journal read whole, every line checked, before anything is recorded.
    const issues: FieldIssue[] = [];
    let problems = 0;
    for (const [index, journal] of named.entries()) {
      const checked = await ledgerOf(journal).checkJournal(journal.path, index);
      problems += checked.count;
      for (const problem of checked.problems) {
        issues.push({ path: `${journal.given} line ${problem.line}, ${problem.path}`, message: problem.message });
      }
    }
    if (problems > 0) {
      throw new UsageError(
        `${formatCount(problems)} ${problems === 1 ? 'problem' : 'problems'} in the ${named.length === 1 ? 'journal' : 'journals'}; nothing was imported.`,
        {
          issues,
          hint:
            'A journal is what a run of einvoice wrote, line for line. Import the file as the run left it ' +
            '(a CI artifact, unedited), or leave out the one that is damaged.',
        },
      );
    }
    for (const [index, journal] of named.entries()) {
      const { header } = journal;
      const ledger = ledgerOf(journal);
      const before = ledger.size();
      const recorded = await ledger.importJournal(journal.path, index, {
        journal: journal.path,
        header,
        via: 'import',
        ...(profile.currency ? { currency: profile.currency } : {}),
      });
      const added = ledger.size() - before;
      terminal.info(
        `${journal.given}: ${formatCount(recorded)} ${sentNoun(header.run.kind)} sent to ` +
          `${header.run.environment} (run ${header.id}), ${formatCount(added)} new in the ledger.`,
      );
    }
  } finally {
    for (const ledger of ledgers.values()) ledger.close();
  }
}

/** The journal `given` names, with its first line; refused when it is not a run's journal. */
async function namedJournal(given: string, context: CommandContext): Promise<Named> {
  const path = resolve(context.cwd, given);
  const header = await journalHeader(path).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `Cannot read the journal ${given}: ${error.code === 'ENOENT' ? 'no such file' : error.message}; nothing was imported.`,
    );
  });
  if (!header) {
    throw new UsageError(
      `${given} is not the journal of a bulk run (its first line is not a run's); nothing was imported.`,
      {
        hint: 'A journal is the .einvoice-journal/*.ndjson file a run of create --file or refund --file keeps (or --journal FILE).',
      },
    );
  }
  return { given, path, header };
}
