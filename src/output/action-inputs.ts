// The GitHub Action (action.yml) runs einvoice for a workflow, which sets the Action's inputs and never types a flag:
// where the Action runs einvoice (it sets EINVOICE_ACTION=true), what a run tells the merchant to change names the
// input (`strict: false`), not the flag (`--no-strict`). The table is the one place flags meet inputs;
// test/output/action-inputs.test.ts holds it to action.yml.

/** How a workflow gives what a flag says: the Action's input, and for a switch the value that turns it on. */
interface ActionInput {
  input: string;
  /** A switch's value (`true`, `keep`); none for a flag that takes a value of its own. */
  value?: string;
  /** The values a message may name after the flag (`DD/MM/YYYY`), besides a placeholder (`FILE`) or a number. */
  values?: RegExp;
}

/** Each flag the Action sets from an input, by its name on the command line. */
export const actionInputs: Readonly<Record<string, ActionInput>> = {
  '--env': { input: 'environment' },
  '--shard': { input: 'shard' },
  '--reference-prefix': { input: 'reference-prefix' },
  '--dry-run': { input: 'dry-run', value: 'true' },
  '--skip-invalid': { input: 'skip-invalid', value: 'true' },
  '--strict': { input: 'strict', value: 'true' },
  '--no-strict': { input: 'strict', value: 'false' },
  '--keep-amount': { input: 'amount', value: 'keep' },
  '--amount-from-items': { input: 'amount', value: 'items' },
  '--allow-expired': { input: 'allow-expired', value: 'true' },
  '--drop-unknown-fields': { input: 'drop-unknown-fields', value: 'true' },
  '--resend-uncertain': { input: 'resend-uncertain', value: 'true' },
  '--fix-mobiles': { input: 'fix-mobiles', value: 'true' },
  '--format': { input: 'format', values: /^(?:csv|ndjson|json|xlsx)$/ },
  '--encoding': { input: 'encoding', values: /^(?:utf-8|utf-16le|utf-16be|windows-1256|iso-8859-6)$/ },
  '--date-format': { input: 'date-format', values: /^(?:DD\/MM\/YYYY|YYYY-MM-DD)$/ },
  '--sheet': { input: 'sheet' },
  '--delimiter': { input: 'delimiter', values: /^(?:"[^"]+"|tab)$/ },
  '--ignore-column': { input: 'ignore-column' },
  '--concurrency': { input: 'concurrency' },
  '--rate': { input: 'rate' },
  '--retries': { input: 'retries' },
  '--stop-after-failures': { input: 'stop-after-failures' },
  '--expect-count': { input: 'expect-count' },
  '--expect-total': { input: 'expect-total' },
  '--mark-refunded': { input: 'mark-refunded' },
  '--mark-not-refunded': { input: 'mark-not-refunded' },
  '--mark-created': { input: 'mark-created' },
  '--mark-not-created': { input: 'mark-not-created' },
};

/** True where the Action runs einvoice: its step sets EINVOICE_ACTION=true. */
export function inTheAction(env: NodeJS.ProcessEnv): boolean {
  return env.EINVOICE_ACTION === 'true';
}

/** A placeholder (`FILE`, `NUMBER`, `N`) or a number a message puts after a flag. */
const placeholder = /^(?:[A-Z][A-Z_]*|\d[\d.,/]*)$/;

/**
 * A flag (after `pass`, which a workflow does as `set`), a note of what the Action calls it (`(skip-invalid: true in
 * the GitHub Action)`), and the word after it, which may be its value.
 */
const flagInText =
  /(?<![\w-])(pass )?(--[a-z][a-z-]*)(?![\w-])(\s*\([^()]*\bin the GitHub Action\))?(?:( )([^\s,;:)]*[^\s,;:).]))?/g;

/**
 * `text` with each flag the Action sets written as a workflow sets it (`set strict: false`), and a command run again
 * as the job run again; other text unchanged.
 */
export function inActionWords(text: string): string {
  return text
    .replace(flagInText, (whole, pass: string | undefined, flag: string, _note, space?: string, next?: string) => {
      const known = actionInputs[flag];
      if (!known) return whole;
      const set = pass === undefined ? '' : 'set ';
      const after = next === undefined ? '' : `${space}${next}`;
      if (known.value !== undefined) return `${set}${known.input}: ${known.value}${after}`;
      const isValue = next !== undefined && (placeholder.test(next) || known.values?.test(next) === true);
      return isValue ? `${set}${known.input}: ${next}` : `${set}${known.input}${after}`;
    })
    .replace(/\bthe same command\b/g, 'the same job');
}

/** What a run's words become where it runs: in the Action, `inActionWords`; elsewhere, as they are. */
export function wordsFor(env: NodeJS.ProcessEnv): (text: string) => string {
  return inTheAction(env) ? inActionWords : (text) => text;
}
