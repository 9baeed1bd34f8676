import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { toJson } from '../../output/format.js';
import { jsonSchemaOf, jsonSchemaNames, type JsonSchemaName } from '../../schemas/json-schema.js';
import { nearestName } from '../../schemas/nearest-name.js';

/** `einvoice schema single|recurring|refund|config`: prints the JSON Schema on stdout. */
export function printSchema(which: string, context: CommandContext): void {
  if (!(jsonSchemaNames as readonly string[]).includes(which)) {
    const nearest = nearestName(which, jsonSchemaNames);
    throw new UsageError(`No schema named "${which}".${nearest ? ` Did you mean ${nearest}?` : ''}`, {
      hint: `Choose one of ${jsonSchemaNames.join(', ')}.`,
    });
  }
  context.stdout.write(`${toJson(jsonSchemaOf(which as JsonSchemaName))}\n`);
}
