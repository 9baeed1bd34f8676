import type { CommandContext } from '../../context.js';
import type { ConfigShowOptions } from './flags.js';
import { describeTokenSource } from '../../config/profile.js';
import { toJson } from '../../output/format.js';
import { openSession } from '../../session.js';

/** `einvoice config show`: which environment is selected, where it points, and where its token comes from. */
export async function showConfig(options: ConfigShowOptions, context: CommandContext): Promise<void> {
  const { terminal, profile } = await openSession(options, context);
  const summary = {
    environment: profile.name,
    selectedBy: profile.selectedBy,
    baseUrl: profile.baseUrl ?? null,
    baseUrlSource: profile.isEmbeddedSandbox ? 'embedded sandbox' : (profile.baseUrlSource ?? null),
    configFile: profile.configFile ?? null,
    token: describeTokenSource(profile.tokenSource),
    defaults: profile.defaults,
    timeZone: profile.timeZone,
    currency: profile.currency ?? null,
  };
  if (terminal.json) {
    terminal.data(toJson(summary));
    return;
  }
  const label = (text: string) => terminal.out.dim(text.padEnd(13));
  terminal.data(
    [
      `${label('Environment')}${summary.environment} (from ${summary.selectedBy === 'default' ? 'the built-in default' : summary.selectedBy})`,
      `${label('Base URL')}${profile.baseUrl ?? 'embedded sandbox (started on a free loopback port per command)'}${profile.baseUrlSource === 'EINVOICE_BASE_URL' ? ' (from EINVOICE_BASE_URL)' : ''}`,
      `${label('Profile file')}${summary.configFile ?? 'none found'}`,
      // On the screen only, so --json's "token" stays one stable text per source.
      `${label('Token')}${describeTokenSource(profile.tokenSource, context.env)}`,
      ...(Object.keys(summary.defaults).length > 0 ? [`${label('Defaults')}${JSON.stringify(summary.defaults)}`] : []),
      `${label('Time zone')}${profile.timeZone} (${{ file: 'from the profile file', TZ: 'from TZ', system: "this machine's" }[profile.timeZoneSource]})`,
      ...(profile.currency ? [`${label('Currency')}${profile.currency} (shown beside amounts, never sent)`] : []),
    ].join('\n'),
  );
}
