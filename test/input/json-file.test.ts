import { describe, expect, it } from 'vitest';
import { jsonProblem } from '../../src/input/json-file.js';

/** What jsonProblem says of `text`, which JSON.parse refuses. */
function problem(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonProblem(text, (error as Error).message);
  }
  throw new Error(`${text} is valid JSON`);
}

describe('jsonProblem', () => {
  it('gives the line and column of a position', () => {
    // V8 words the problem; the place is ours.
    expect(problem('{\n  "a": 1,\n  "b" 2\n}')).toMatch(/ in JSON at line 3, column 7$/);
  });

  it('says where a cut-off text ends', () => {
    expect(problem('{\n  "note": \n\n')).toMatch(/ \(the text ends at line 2, column 10\)$/);
  });

  it('says once that the text is not JSON, quoting the start of it', () => {
    expect(problem('not json')).toBe('Unexpected token \'o\' in "not json"');
    expect(problem(`name,mobile,${'x'.repeat(60)}`)).toBe('Unexpected token \'a\' in "name,mobile..."');
  });

  it('keeps the message on one line when it quotes line breaks', () => {
    const said = problem('nonsense\n');
    expect(said).not.toContain('\n');
    expect(said).toContain('"nonsense\\n"');
  });
});
