import { resolve } from 'node:path';
import { ledgerFile } from '../../config/paths.js';
import type { CommandContext } from '../../context.js';
import { UsageError, type FieldIssue } from '../../errors.js';
import { journalHeader, type JournalHeader } from '../../ledger/journal-import.js';
import { sentNoun } from '../../ledger/sent-records.js';
import { Ledger } from '../../ledger/ledger.js';
import { formatCount } from '../../schemas/number-text.js';
import { resolveProfile, type Profile } from '../../config/profile.js';
import { createTerminal } from '../../output/terminal.js';
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
  // Each journal names its environment: no environment is selected, so none is announced.
  const terminal = createTerminal(context, options);
  // Every journal's first line is read before any is imported: a wrong file named among many imports none.
  const named = await Promise.all(journals.map((given) => namedJournal(given, context)));
  // --env says which environment's ledger the journals go into: one of another environment imports none.
  const other =
    options.env === undefined ? undefined : named.find(({ header }) => header.run.environment !== options.env);
  if (other) {
    throw new UsageError(
      `${other.given} is the journal of a run sent to ${other.header.run.environment}, not ${options.env} (--env); nothing was imported.`,
      { hint: 'Leave out --env: each journal goes into the ledger of the environment it names.' },
    );
  }
  const profiles = await profilesOf(named, options, context);
  const ledgers = new Map<string, Ledger>();
  try {
    for (const environment of profiles.keys()) {
      ledgers.set(environment, (await Ledger.open(ledgerFile(environment, context.env), { create: true })) as Ledger);
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
      const environment = header.run.environment;
      const currency = profiles.get(environment)?.currency;
      const ledger = ledgerOf(journal);
      const before = ledger.size();
      const recorded = await ledger.importJournal(journal.path, index, {
        journal: journal.path,
        header,
        via: 'import',
        ...(currency ? { currency } : {}),
      });
      const added = ledger.size() - before;
      terminal.info(
        `${journal.given}: ${formatCount(recorded)} ${sentNoun(header.run.kind)} sent to ${environment} ` +
          `(run ${header.id}), ${formatCount(added)} new in the ledger.`,
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

/**
 * The profile of each environment the journals name. An environment needs no profile entry to keep its ledger, only
 * not one that turns the ledger off.
 */
async function profilesOf(
  named: readonly Named[],
  options: ImportOptions,
  context: CommandContext,
): Promise<Map<string, Profile>> {
  const profiles = new Map<string, Profile>();
  for (const environment of new Set(named.map(({ header }) => header.run.environment))) {
    const profile = await resolveProfile({
      env: environment,
      config: options.config,
      cwd: context.cwd,
      environment: context.env,
      use: 'ledger',
    });
    if (!profile.ledger || options.ledger === false) {
      throw new UsageError(
        `The ledger of ${environment} is off (${options.ledger === false ? '--no-ledger' : `ledger: false in ${profile.configFile ?? 'the profile file'}`}); nothing was imported.`,
      );
    }
    profiles.set(environment, profile);
  }
  return profiles;
}
