import { access, chmod, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CommandContext } from '../../context.js';
import type { ConfigInitOptions } from './flags.js';
import { UsageError } from '../../errors.js';
import { exampleProfileFile } from '../../package-files.js';
import { interruptible, promptContext } from '../../input/prompts.js';
import { toJson } from '../../output/format.js';
import { createTerminal } from '../../output/terminal.js';
import {
  configSchema,
  environmentNameSchema,
  environmentSchema,
  productionEnvironment,
  sandboxEnvironment,
  type Config,
  type EnvironmentConfig,
} from '../../schemas/config.js';
import { isTimeZone, processTimeZone } from '../../schemas/time-zone.js';
import { validate } from '../../schemas/validate.js';

const fileName = '.einvoicerc';

/** `einvoice config init`: asks for environments and token sources, then writes `.einvoicerc` with mode 0600. */
export async function initConfig(options: ConfigInitOptions, context: CommandContext): Promise<void> {
  const terminal = createTerminal(context, options);
  const target = resolve(context.cwd, fileName);
  // Refuse before the first question, not after the last answer.
  if (!options.force && (await exists(target))) throw alreadyExists(target);
  if (!terminal.interactive) {
    throw new UsageError('einvoice config init asks questions, and there is no terminal to ask on.', {
      hint: `Run it in a terminal, or copy ${exampleProfileFile} to .einvoicerc and edit it.`,
    });
  }
  const prompts = await import('../../input/inquirer.js');
  const streams = promptContext(context);
  // The file is written only once every answer is in, so an interrupted run leaves none.
  const ask = <T>(prompt: () => Promise<T>) => interruptible(prompt, `Interrupted: ${target} was not written.`);
  const checkWith = (rule: Parameters<typeof validate>[0]) => (value: string) => {
    const result = validate(rule, value);
    return result.success || (result.issues[0]?.message ?? 'is invalid');
  };

  const environments: Record<string, EnvironmentConfig> = {};
  do {
    const name = await ask(() =>
      prompts.input(
        {
          message: 'Environment name',
          default: Object.keys(environments).length === 0 ? 'staging' : productionEnvironment,
          // A second entry of a name would silently replace the first, token and all.
          validate: (value) =>
            Object.hasOwn(environments, value.trim())
              ? `${value.trim()} is entered already: choose another name`
              : checkWith(environmentNameSchema)(value),
        },
        streams,
      ),
    );
    const baseUrl = await ask(() =>
      prompts.input({ message: `Base URL of ${name}`, validate: checkWith(environmentSchema.shape.baseUrl) }, streams),
    );
    const source = await ask(() =>
      prompts.select(
        {
          message: `Where does the ${name} token come from?`,
          choices: [
            { name: 'an environment variable (recommended)', value: 'tokenEnv' },
            { name: 'a command that prints it (a password manager)', value: 'tokenCommand' },
            { name: 'this file (typed now, kept in .einvoicerc)', value: 'token' },
          ] as const,
        },
        streams,
      ),
    );
    const environment: EnvironmentConfig = { baseUrl };
    if (source === 'tokenEnv') {
      environment.tokenEnv = await ask(() =>
        prompts.input(
          {
            message: 'Name of the variable',
            default: `EINVOICE_${name.toUpperCase().replace(/-/g, '_')}_TOKEN`,
            validate: checkWith(environmentSchema.shape.tokenEnv),
          },
          streams,
        ),
      );
    } else if (source === 'tokenCommand') {
      environment.tokenCommand = await ask(() =>
        prompts.input({ message: 'Command', validate: checkWith(environmentSchema.shape.tokenCommand) }, streams),
      );
    } else {
      // The token is never echoed: the prompt shows a mask, and nothing prints it afterwards.
      environment.token = await ask(() =>
        prompts.password({ message: 'Token', mask: '*', validate: checkWith(environmentSchema.shape.token) }, streams),
      );
    }
    environments[name] = environment;
  } while (await ask(() => prompts.confirm({ message: 'Add another environment?', default: false }, streams)));

  const defaultChoices = [
    ...Object.keys(environments).filter((name) => name !== productionEnvironment),
    sandboxEnvironment,
  ];
  const defaultEnv = await ask(() =>
    prompts.select(
      {
        message: 'Default environment (production is always chosen explicitly)',
        choices: defaultChoices.map((value) => ({ value })),
      },
      streams,
    ),
  );

  // The days of `today` and of bare dates are this zone's: a CI runner on UTC would otherwise be a day behind Cairo.
  const namedZone = context.env.TZ?.replace(/^:/, '');
  const timeZone = await ask(() =>
    prompts.input(
      {
        message: "Time zone of your invoices' dates (an IANA name, e.g. Africa/Cairo)",
        default: namedZone && isTimeZone(namedZone) ? namedZone : processTimeZone(),
        validate: checkWith(configSchema.shape.timeZone),
      },
      streams,
    ),
  );
  const currency = await ask(() =>
    prompts.input(
      {
        message: 'Currency shown beside amounts, never sent (e.g. EGP; empty for none)',
        validate: (value: string) => value.trim() === '' || checkWith(configSchema.shape.currency)(value),
      },
      streams,
    ),
  );

  const config = validate(configSchema, {
    defaultEnv,
    environments,
    timeZone: timeZone.trim(),
    ...(currency.trim() ? { currency } : {}),
  } satisfies Config);
  if (!config.success) throw new UsageError('The answers do not make a valid profile file.', { issues: config.issues });
  await writeProfile(target, config.data, Boolean(options.force));
  terminal.success(`Wrote ${target} (readable only by you). Check it with: einvoice config show`);
}

/** True when `path` exists. */
async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function alreadyExists(target: string): UsageError {
  return new UsageError(`${target} already exists; nothing was written.`, { hint: 'Pass --force to replace it.' });
}

/**
 * Writes the file with mode 0600, refusing to replace an existing one unless forced. A forced write replaces the file
 * by renaming a new 0600 file over it, so the token is never written into a file others may read.
 */
async function writeProfile(target: string, config: Config, force: boolean): Promise<void> {
  const content = `${toJson(config)}\n`;
  try {
    if (force) {
      const { default: writeFileAtomic } = await import('write-file-atomic');
      await writeFileAtomic(target, content, { mode: 0o600 });
    } else {
      await writeFile(target, content, { mode: 0o600, flag: 'wx' });
    }
    // The umask may have narrowed the mode; make it exactly 0600.
    await chmod(target, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyExists(target);
    throw new UsageError(`Cannot write ${target}: ${(error as Error).message}.`);
  }
}
