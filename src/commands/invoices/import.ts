import { resolve } from 'node:path';
import { ledgerFile } from '../../config/paths.js';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { journalHeader, journalLedgerEntries } from '../../ledger/journal-import.js';
import { sentNoun } from '../../ledger/sent-records.js';
import { Ledger } from '../../ledger/ledger.js';
import { formatCount } from '../../schemas/number-text.js';
import { openSession } from '../../session.js';
import type { ImportOptions } from './flags.js';

/**
 * `einvoice invoices import <journal>...`: the journals of bulk runs on other machines (CI shards) brought into the
 * ledger of the environment each names. A record is keyed by its journal's id, so importing again adds nothing.
 */
export async function importJournals(journals: string[], options: ImportOptions, context: CommandContext) {
  const session = await openSession(options, context);
  const { terminal, profile } = session;
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
  const off = headers.find(
    ({ header }) => header.run.environment === profile.name && (!profile.ledger || options.ledger === false),
  );
  if (off) {
    throw new UsageError(
      `The ledger of ${profile.name} is off (ledger: false in the profile, or --no-ledger); nothing was imported.`,
    );
  }
  for (const { given, path, header } of headers) {
    const environment = header.run.environment;
    const ledger = (await Ledger.open(ledgerFile(environment, context.env), { create: true })) as Ledger;
    try {
      const before = ledger.size();
      let entries = 0;
      for await (const batch of journalLedgerEntries(path, {
        journal: path,
        header,
        via: 'import',
        ...(profile.currency ? { currency: profile.currency } : {}),
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
