import { resolve } from 'node:path';
import { ledgerFile } from '../../config/paths.js';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { journalHeader, journalLedgerEntries } from '../../ledger/journal-import.js';
import { sentNoun } from '../../ledger/sent-records.js';
import { Ledger } from '../../ledger/ledger.js';
import { formatCount } from '../../schemas/number-text.js';
import { resolveProfile, type Profile } from '../../config/profile.js';
import { createTerminal } from '../../output/terminal.js';
import type { ImportOptions } from './flags.js';

/**
 * `einvoice invoices import <journal>...`: the journals of bulk runs on other machines (CI shards) brought into the
 * ledger of the environment each names. A record is keyed by its journal's id, so importing again adds nothing.
 */
export async function importJournals(journals: string[], options: ImportOptions, context: CommandContext) {
  // Each journal names its environment: no environment is selected, so none is announced.
  const terminal = createTerminal(context, options);
  // Every journal is read before any is imported: a wrong file named among many imports none.
  const headers = await Promise.all(
    journals.map(async (given) => {
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
    }),
  );
  // --env says which environment's ledger the journals go into: one of another environment imports none.
  const other =
    options.env === undefined ? undefined : headers.find(({ header }) => header.run.environment !== options.env);
  if (other) {
    throw new UsageError(
      `${other.given} is the journal of a run sent to ${other.header.run.environment}, not ${options.env} (--env); nothing was imported.`,
      { hint: 'Leave out --env: each journal goes into the ledger of the environment it names.' },
    );
  }
  // An environment needs no profile entry to keep its ledger, only not one that turns the ledger off.
  const profiles = new Map<string, Profile>();
  for (const environment of new Set(headers.map(({ header }) => header.run.environment))) {
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
  for (const { given, path, header } of headers) {
    const environment = header.run.environment;
    const currency = profiles.get(environment)?.currency;
    const ledger = (await Ledger.open(ledgerFile(environment, context.env), { create: true })) as Ledger;
    try {
      const before = ledger.size();
      let entries = 0;
      for await (const batch of journalLedgerEntries(path, {
        journal: path,
        header,
        via: 'import',
        ...(currency ? { currency } : {}),
      })) {
        ledger.record(batch);
        entries += batch.length;
      }
      const added = ledger.size() - before;
      terminal.info(
        `${given}: ${formatCount(entries)} ${sentNoun(header.run.kind)} sent to ${environment} (run ${header.id}), ` +
          `${formatCount(added)} new in the ledger.`,
      );
    } finally {
      ledger.close();
    }
  }
}
