import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ledgerFile } from '../../config/paths.js';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { LedgerFilter } from '../../ledger/filter.js';
import { Ledger } from '../../ledger/ledger.js';
import { nearestName } from '../../schemas/nearest-name.js';
import { endOfDayIn, startOfDayIn } from '../../schemas/time-zone.js';
import { calendarDateIn } from '../../schemas/time-zone.js';
import { relativeDay } from '../../input/dates.js';
import type { Session } from '../../session.js';
import type { FilterOptions } from './flags.js';

/** The ledger of the session's environment, to read; undefined when nothing was ever recorded there. */
export async function readLedger(session: Session, context: CommandContext): Promise<Ledger | undefined> {
  return Ledger.open(ledgerFile(session.profile.name, context.env), { create: false });
}

/**
 * What the ledger is, for a sentence that says it holds nothing: and when this machine keeps the ledgers of other
 * environments, which (the one meant, when the name given is a slip).
 */
export function emptyLedgerNote(session: Session, context: CommandContext): string {
  const { name } = session.profile;
  const others = ledgersHere(context.env).filter((other) => other !== name);
  const nearest = nearestName(name, others);
  return (
    `No invoice sent to ${name} is recorded in the ledger of this machine ` +
    `(${ledgerFile(name, context.env)}). It holds what einvoice sends from here, and the journals ` +
    'imported with einvoice invoices import.' +
    (nearest ? ` Did you mean --env ${nearest}?` : '') +
    (others.length > 0 ? ` This machine keeps the ledgers of ${others.join(', ')}.` : '')
  );
}

/** The environments this machine keeps a ledger of, by the names of their files. */
function ledgersHere(env: NodeJS.ProcessEnv): string[] {
  let files: string[];
  try {
    files = readdirSync(dirname(ledgerFile('sandbox', env)));
  } catch {
    return [];
  }
  // Names the profile file can give (ledgerFile() spells out any other character).
  return files.flatMap((file) => /^([A-Za-z0-9_-]+)\.sqlite$/.exec(file)?.[1] ?? []).sort();
}

/** The filter the flags ask for; a day is one of the merchant's time zone (in CI with none configured, told so). */
export async function filterOf(options: FilterOptions, session: Session): Promise<LedgerFilter> {
  const zone = { timeZone: session.profile.timeZone, dayRead: session.zone.dayRead };
  const filter = {
    ...(options.since !== undefined ? { since: instantOf('--since', options.since, zone, 'start') } : {}),
    ...(options.until !== undefined ? { until: instantOf('--until', options.until, zone, 'end') } : {}),
    ...(options.ref !== undefined ? { businessReference: options.ref } : {}),
    ...(options.customer !== undefined ? { customer: options.customer } : {}),
    ...(options.status !== undefined ? { status: options.status } : {}),
    ...(options.kind !== undefined ? { kind: options.kind } : {}),
    ...(options.run !== undefined ? { run: options.run } : {}),
  };
  await session.zone.tell();
  return filter;
}

/**
 * A day (`YYYY-MM-DD`; `today`, `yesterday`, `-7d`, `-2w`, `-1m` counted as `--expiry-date +30d` is) of the merchant's
 * zone or an ISO instant given to `flag`, as the ISO instant it starts or ends at.
 */
export function instantOf(
  flag: string,
  text: string,
  zone: { timeZone: string; dayRead?: () => void },
  edge: 'start' | 'end',
): string {
  const { timeZone } = zone;
  const day = relativeDay(text, calendarDateIn(new Date(), timeZone), { past: true }) ?? text;
  if (/^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
    zone.dayRead?.();
    return edge === 'start' ? startOfDayIn(day, timeZone) : endOfDayIn(day, timeZone);
  }
  const instant = /T/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(instant)) {
    throw new UsageError(`${flag} ${text} is not a day or an instant.`, {
      hint: `Give a day as YYYY-MM-DD (a day of ${timeZone}), today, yesterday, -7d (seven days ago; -2w, -1m), or an ISO instant such as 2026-11-01T09:00:00Z.`,
    });
  }
  return new Date(instant).toISOString();
}
