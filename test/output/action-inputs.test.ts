import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { actionInputs, inActionWords, wordsFor } from '../../src/output/action-inputs.js';

// The table from flag to the Action's input is held to action.yml: each input it names is one, and each flag the
// Action's step passes from an input is in it, under that input.

interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
}
const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
  inputs: Record<string, unknown>;
  runs: { steps: Step[] };
};
const runStep = action.runs.steps.find((step) => step.run?.includes('einvoice "${args[@]}"')) as Step;

/** The input a variable of the step's env is filled from: `DATE_FORMAT: ${{ inputs.date-format }}`. */
function inputOf(variable: string): string | undefined {
  return /^\$\{\{\s*inputs\.([\w-]+)\s*\}\}$/.exec(runStep.env?.[variable] ?? '')?.[1];
}

describe('the table of flags and inputs', () => {
  it('names only inputs of action.yml', () => {
    const inputs = Object.keys(action.inputs);
    for (const [flag, { input }] of Object.entries(actionInputs)) expect(inputs, flag).toContain(input);
  });

  it("holds every flag the Action's step passes from an input, under that input", () => {
    const passed = [...(runStep.run ?? '').matchAll(/with_(?:flag|value|each) (--[a-z-]+) "\$(\w+)"/g)];
    expect(passed.length).toBeGreaterThan(10);
    for (const [, flag, variable] of passed) {
      expect(actionInputs[flag as string]?.input, flag).toBe(inputOf(variable as string));
    }
    // The switches the step sets by an input's value: strict, and amount.
    for (const [flag, input] of [
      ['--strict', 'strict'],
      ['--no-strict', 'strict'],
      ['--keep-amount', 'amount'],
      ['--amount-from-items', 'amount'],
    ] as const) {
      expect(runStep.run).toContain(flag);
      expect(actionInputs[flag]?.input).toBe(input);
    }
  });
});

describe('inActionWords', () => {
  it.each([
    ['pass --no-strict to send them with their warnings.', 'set strict: false to send them with their warnings.'],
    [
      'Fix them and run the same command again, or pass --skip-invalid (skip-invalid: true in the GitHub Action) to send the valid records',
      'Fix them and run the same job again, or set skip-invalid: true to send the valid records',
    ],
    ['is 1.00 (--strict)', 'is 1.00 (strict: true)'],
    [
      '--keep-amount sends 150.00, --amount-from-items sends 281.10',
      'amount: keep sends 150.00, amount: items sends 281.10',
    ],
    ['with --date-format DD/MM/YYYY', 'with date-format: DD/MM/YYYY'],
    ['pass --encoding windows-1256.', 'set encoding: windows-1256.'],
    ['with --date-format DD/MM/YYYY: text', 'with date-format: DD/MM/YYYY: text'],
    [
      'Drop --encoding windows-1256: UTF-8 is read without it.',
      'Drop encoding: windows-1256: UTF-8 is read without it.',
    ],
    ['(--reference-prefix)', '(reference-prefix)'],
    ['--reference-prefix gives each one a reference', 'reference-prefix gives each one a reference'],
    ['--mark-refunded NUMBER if it was made', 'mark-refunded: NUMBER if it was made'],
    ['--resend-uncertain sends them again', 'resend-uncertain: true sends them again'],
    [
      'format the column as text, or pass --fix-mobiles to send 01012345678',
      'format the column as text, or set fix-mobiles: true to send 01012345678',
    ],
    ['sent as 01012345678 (--fix-mobiles)', 'sent as 01012345678 (fix-mobiles: true)'],
    ['--sheet NAME reads another worksheet', 'sheet: NAME reads another worksheet'],
  ])('%s', (cli, action) => {
    expect(inActionWords(cli)).toBe(action);
  });

  it('leaves flags the Action does not take from an input, and words that only look like flags', () => {
    for (const text of [
      '--report FILE lists them all',
      '--journal FILE',
      'a--strict',
      '---strict',
      'pass --yes',
      'compass --x',
    ]) {
      expect(inActionWords(text)).toBe(text);
    }
  });

  it('applies only where the Action runs einvoice', () => {
    expect(wordsFor({ EINVOICE_ACTION: 'true' })('--no-strict')).toBe('strict: false');
    expect(wordsFor({ GITHUB_ACTIONS: 'true' })('--no-strict')).toBe('--no-strict');
  });
});
