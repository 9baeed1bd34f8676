import type { ZodType } from 'zod';
import type { CommandContext } from '../context.js';
import { InterruptedError } from '../errors.js';
import { validate } from '../schemas/validate.js';

/** One question for one field, validated by that field's own schema rule as it is typed. */
export interface FieldQuestion {
  key: string;
  message: string;
  rule: ZodType;
  /** A list to choose from instead of typing. */
  choices?: readonly string[];
  /** Turns the typed text into the value checked and kept (e.g. a number). */
  parse?: (answer: string) => unknown;
  default?: string;
}

/** The streams prompts use: they read stdin and draw on stderr, so stdout keeps only data. */
export function promptContext(context: CommandContext) {
  // The command's interruption (SIGINT or SIGTERM, which the entry point catches) ends the question.
  return { input: context.stdin, output: context.stderr, clearPromptOnDone: false, signal: context.signal };
}

/** Asks each question in turn and returns the answers; an invalid answer is asked again with the rule's message. */
export async function askFields(questions: FieldQuestion[], context: CommandContext): Promise<Record<string, unknown>> {
  const { input, select } = await import('./inquirer.js');
  const answers: Record<string, unknown> = {};
  for (const question of questions) {
    const parse = question.parse ?? ((answer: string) => answer);
    const answer = await interruptible(() =>
      question.choices
        ? select(
            {
              message: question.message,
              choices: question.choices.map((value) => ({ value })),
              default: question.default,
            },
            promptContext(context),
          )
        : input(
            {
              message: question.message,
              default: question.default,
              validate: (typed) => {
                const result = validate(question.rule, parse(typed));
                return result.success || (result.issues[0]?.message ?? 'is invalid');
              },
            },
            promptContext(context),
          ),
    );
    answers[question.key] = parse(answer);
  }
  return answers;
}

/** Asks a yes/no question; false by default. */
export async function confirmAction(message: string, context: CommandContext): Promise<boolean> {
  const { confirm } = await import('./inquirer.js');
  return interruptible(() => confirm({ message, default: false }, promptContext(context)));
}

/** Asks for text the merchant must type exactly (for confirming production actions). */
export async function confirmByTyping(message: string, expected: string, context: CommandContext): Promise<boolean> {
  const { input } = await import('./inquirer.js');
  const typed = await interruptible(() => input({ message }, promptContext(context)));
  return typed.trim() === expected;
}

/** Runs a prompt; Ctrl-C becomes an InterruptedError (exit 130) saying `outcome` (by default: nothing was sent). */
export async function interruptible<T>(prompt: () => Promise<T>, outcome?: string): Promise<T> {
  try {
    return await prompt();
  } catch (error) {
    if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) {
      // Aborted by a signal: the exit code says which (SIGTERM: 143).
      const reason = error.cause;
      throw new InterruptedError(outcome, { signal: reason instanceof InterruptedError ? reason.signal : undefined });
    }
    throw error;
  }
}
