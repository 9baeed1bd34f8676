import { describe, expect, it } from 'vitest';
import { csvCell, withoutTextMark } from '../src/csv-writer.js';

// The one CSV cell writer: quoted when it must be, and never a formula a spreadsheet would run.

describe('csvCell', () => {
  it('quotes a cell with a comma, a quote or a line break only', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a\nb')).toBe('"a\nb"');
    expect(csvCell('say "hi", twice')).toBe('"say ""hi"", twice"');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(null)).toBe('');
  });

  it('marks as text every cell a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("https://x.example","Pay")')).toBe('"\'=HYPERLINK(""https://x.example"",""Pay"")"');
    expect(csvCell('@SUM(1)')).toBe("'@SUM(1)");
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe('"\'\r=1"');
    expect(csvCell('Amr = Hassan')).toBe('Amr = Hassan');
  });

  it("keeps a mobile's + as text, and writes an amount einvoice wrote as the number it is", () => {
    expect(csvCell('+201012345678')).toBe("'+201012345678");
    expect(csvCell('-12.50', 'number')).toBe('-12.50');
    expect(csvCell('150.75', 'number')).toBe('150.75');
    expect(csvCell(-5)).toBe('-5');
    // Given as a number, but not one: text, marked.
    expect(csvCell('-1+2', 'number')).toBe("'-1+2");
  });

  it('reads a marked cell back as the text it holds, and leaves any other as it is', () => {
    for (const text of ['+201012345678', '=1+1', '@x', '-2+3', "'quoted", 'plain']) {
      const cell = csvCell(text);
      expect(withoutTextMark(cell)).toBe(text);
    }
    expect(withoutTextMark("'abc")).toBe("'abc");
  });
});
