import * as z from 'zod';
import { nearestName } from './nearest-name.js';
import type { StatisticsGroup } from './statistics.js';

const groupNames: Record<string, StatisticsGroup> = {
  all: 'allInvoices',
  paid: 'paidInvoices',
  unpaid: 'unpaidInvoices',
  expired: 'expiredInvoices',
  refunded: 'refundedInvoices',
  canceled: 'canceledInvoices',
};
/** The comparisons a condition may use. */
export type ConditionOperator = '>=' | '<=' | '==' | '!=' | '>' | '<';

/** A parsed `--fail-if` condition such as `expired.count>0`. */
export interface StatsCondition {
  text: string;
  group: StatisticsGroup;
  metric: 'totalCount' | 'totalAmount';
  operator: ConditionOperator;
  value: number;
}

/** Read in any case, as enum values are elsewhere: `Paid.Amount>100` is `paid.amount>100`. */
const conditionPattern =
  /^\s*(all|paid|unpaid|expired|refunded|canceled)\.(count|amount)\s*(>=|<=|==|!=|>|<)\s*(\d+(?:\.\d+)?)\s*$/i;

/** `GROUP.count|amount OP NUMBER`, GROUP one of all, paid, unpaid, expired, refunded, canceled. */
export const statsConditionSchema = z.string().transform((text, ctx): StatsCondition => {
  const match = conditionPattern.exec(text);
  if (!match) {
    // A slip in the group's name gets its nearest ("expird.count>0": did you mean expired?).
    const typed = /^\s*([^.\s]+)\./.exec(text)?.[1];
    const meant =
      typed && !(typed.toLowerCase() in groupNames) ? nearestName(typed, Object.keys(groupNames)) : undefined;
    ctx.issues.push({
      code: 'custom',
      input: text,
      message:
        "must look like GROUP.count|amount OP NUMBER, e.g. 'expired.count>0' (groups: all, paid, unpaid, expired, refunded, canceled; OP: > >= < <= == !=)" +
        (meant ? `; did you mean ${meant}?` : ''),
    });
    return z.NEVER;
  }
  const [, group, metric, operator, value] = match as unknown as [string, string, string, ConditionOperator, string];
  return {
    text: text.trim(),
    group: groupNames[group.toLowerCase()] as StatisticsGroup,
    metric: metric.toLowerCase() === 'count' ? 'totalCount' : 'totalAmount',
    operator,
    value: Number(value),
  };
});

/** True when the condition holds for `actual`. */
export function conditionHolds(condition: StatsCondition, actual: number): boolean {
  const { operator, value } = condition;
  switch (operator) {
    case '>':
      return actual > value;
    case '>=':
      return actual >= value;
    case '<':
      return actual < value;
    case '<=':
      return actual <= value;
    case '==':
      return actual === value;
    case '!=':
      return actual !== value;
  }
}
