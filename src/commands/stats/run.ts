import type { CommandContext } from '../../context.js';
import type { StatsOptions } from './flags.js';
import { ConditionError, UsageError } from '../../errors.js';
import { withSpinner } from '../../output/spinner.js';
import { toJson } from '../../output/format.js';
import { renderStatsTable } from '../../output/stats-table.js';
import { formatAmount, formatCount } from '../../schemas/number-text.js';
import type { Statistics } from '../../schemas/statistics.js';
import { conditionHolds, statsConditionSchema, type StatsCondition } from '../../schemas/stats-condition.js';
import { validate } from '../../schemas/validate.js';
import { openSession } from '../../session.js';

/** `einvoice stats`: reads the statistics, prints them, and fails when a --fail-if condition holds. */
export async function stats(options: StatsOptions, context: CommandContext): Promise<void> {
  const conditions = parseConditions(options.failIf ?? []);
  const { terminal, connect, profile } = await openSession(options, context);

  const service = await connect();
  let statistics: Statistics;
  try {
    statistics = await withSpinner(terminal, context, 'Fetching invoice statistics', () =>
      service.client.getStatistics(),
    );
  } finally {
    await service.close();
  }

  terminal.data(terminal.json ? toJson(statistics) : renderStatsTable(statistics, terminal.out, profile.currency));

  const held = conditions.filter((condition) =>
    conditionHolds(condition, statistics[condition.group][condition.metric]),
  );
  if (held.length > 0) {
    // As the table shows it: an amount with its two decimals (630.50), a count as it is.
    const described = held.map((condition) => {
      const actual = statistics[condition.group][condition.metric];
      return `${condition.text} (is ${condition.metric === 'totalAmount' ? formatAmount(actual) : formatCount(actual)})`;
    });
    throw new ConditionError(`--fail-if condition held: ${described.join('; ')}`);
  }
}

function parseConditions(texts: string[]): StatsCondition[] {
  return texts.map((text) => {
    const result = validate(statsConditionSchema, text);
    if (!result.success) {
      throw new UsageError(`Invalid --fail-if condition "${text}".`, {
        issues: result.issues.map((issue) => ({ ...issue, path: '--fail-if' })),
      });
    }
    return result.data;
  });
}
