import { writeFileSync } from 'node:fs';
import { zip } from '@cj-tech-master/excelts/archive';

// Workbooks as another program writes them: the XML parts written out by hand and zipped, so the reader is tested
// against Excel's format rather than against its own writer. Cells are shared strings or inline strings, numbers,
// dates (a serial number with a date format), booleans, formulas with or without their cached value, and errors.

/** One cell of a hand-made sheet. */
export type HandCell =
  | { shared: string }
  /** A shared string written as XML, as is (a character reference, say). */
  | { sharedXml: string }
  | { inline: string }
  | { number: number | string }
  | { date: number }
  | { bool: boolean }
  | { formula: string; cached?: string; type?: 'e' | 'str' | 'n' }
  | { error: string }
  | null;

export interface HandWorkbook {
  /** The worksheets in order, each by its name. */
  sheets: Array<{ name: string; rows: HandCell[][] }>;
  /** Excel's 1904 date system (old Macs). */
  date1904?: boolean;
  /** A macro workbook's parts: its VBA project, or the content type that says it is one. */
  macro?: 'vba-project' | 'content-type';
  /** More parts, by path. */
  extra?: Record<string, string | Uint8Array>;
}

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

function letter(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  }
  return name;
}

/** The bytes of a hand-made workbook. */
export async function handMadeWorkbook(book: HandWorkbook): Promise<Uint8Array> {
  const shared: string[] = [];
  const sheetXml = book.sheets.map(({ rows }) => {
    const rowXml = rows.map((cells, rowIndex) => {
      const cellXml = cells.map((cell, column) => {
        const ref = `${letter(column)}${rowIndex + 1}`;
        if (cell === null) return '';
        if ('shared' in cell || 'sharedXml' in cell) {
          shared.push('shared' in cell ? escape(cell.shared) : cell.sharedXml);
          return `<c r="${ref}" t="s"><v>${shared.length - 1}</v></c>`;
        }
        if ('inline' in cell) return `<c r="${ref}" t="inlineStr"><is><t>${escape(cell.inline)}</t></is></c>`;
        if ('number' in cell) return `<c r="${ref}"><v>${cell.number}</v></c>`;
        // Style 1 is a date format (numFmtId 14, m/d/yyyy).
        if ('date' in cell) return `<c r="${ref}" s="1"><v>${cell.date}</v></c>`;
        if ('bool' in cell) return `<c r="${ref}" t="b"><v>${cell.bool ? 1 : 0}</v></c>`;
        if ('error' in cell) return `<c r="${ref}" t="e"><v>${escape(cell.error)}</v></c>`;
        const type = cell.type && cell.type !== 'n' ? ` t="${cell.type}"` : '';
        const cached = cell.cached === undefined ? '' : `<v>${escape(cell.cached)}</v>`;
        return `<c r="${ref}"${type}><f>${escape(cell.formula)}</f>${cached}</c>`;
      });
      return `<row r="${rowIndex + 1}">${cellXml.join('')}</row>`;
    });
    return (
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      `<sheetData>${rowXml.join('')}</sheetData></worksheet>`
    );
  });
  const main =
    book.macro === 'content-type'
      ? 'application/vnd.ms-excel.sheet.macroEnabled.main+xml'
      : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml';
  const parts: Record<string, string | Uint8Array> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/xl/workbook.xml" ContentType="${main}"/>` +
      book.sheets
        .map(
          (_, index) =>
            `<Override PartName="/xl/worksheets/sheet${index + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('') +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
      '</Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
      '</Relationships>',
    'xl/workbook.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
      `<workbookPr${book.date1904 ? ' date1904="1"' : ''}/><sheets>` +
      book.sheets
        .map((sheet, index) => `<sheet name="${escape(sheet.name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`)
        .join('') +
      '</sheets></workbook>',
    'xl/_rels/workbook.xml.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      book.sheets
        .map(
          (_, index) =>
            `<Relationship Id="rId${index + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`,
        )
        .join('') +
      `<Relationship Id="rId${book.sheets.length + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
      `<Relationship Id="rId${book.sheets.length + 2}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>` +
      '</Relationships>',
  };
  // As Excel orders them: the worksheets before the styles and the shared strings they use.
  sheetXml.forEach((xml, index) => (parts[`xl/worksheets/sheet${index + 1}.xml`] = xml));
  parts['xl/styles.xml'] =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="1"><fill><patternFill patternType="none"/></fill></fills>' +
    '<borders count="1"><border/></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
    '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
    '</styleSheet>';
  parts['xl/sharedStrings.xml'] =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.length}" uniqueCount="${shared.length}">` +
    shared.map((xml) => `<si><t xml:space="preserve">${xml}</t></si>`).join('') +
    '</sst>';
  if (book.macro === 'vba-project') parts['xl/vbaProject.bin'] = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]);
  Object.assign(parts, book.extra);
  let archive = zip();
  for (const [path, content] of Object.entries(parts)) archive = archive.add(path, content);
  return archive.bytes();
}

/** Writes a hand-made workbook to `path`. */
export async function writeHandMadeWorkbook(path: string, book: HandWorkbook): Promise<string> {
  writeFileSync(path, await handMadeWorkbook(book));
  return path;
}

/** Excel's serial day number of a date `YYYY-MM-DD` (and a time of day), in its 1900 or 1904 system. */
export function excelSerial(date: string, time = '00:00:00', date1904 = false): number {
  const days = (Date.parse(`${date}T${time}Z`) - Date.UTC(1899, 11, 30)) / 86_400_000;
  return date1904 ? days - 1462 : days;
}

/** The signature of a zip's central directory header. */
const centralSignature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

/**
 * A zip's bytes with the sizes its central directory declares for some parts replaced, as a crafted zip bomb
 * misstates them: the directory is what a reader sees before it unpacks anything. Without `packed`, the packed size
 * stays true, so the part can still be unpacked (to more than its directory says).
 */
export function withDeclaredSizes(
  zipBytes: Uint8Array,
  sizes: Record<string, { packed?: number; unpacked: number }>,
): Uint8Array {
  const bytes = Buffer.from(zipBytes);
  let patched = 0;
  // Each central directory header: its signature, the sizes at 20 and 24, the name's length at 28, the name at 46.
  for (let at = bytes.indexOf(centralSignature); at >= 0; at = bytes.indexOf(centralSignature, at + 4)) {
    const name = bytes.toString('utf8', at + 46, at + 46 + bytes.readUInt16LE(at + 28));
    const size = sizes[name];
    if (!size) continue;
    if (size.packed !== undefined) bytes.writeUInt32LE(size.packed, at + 20);
    bytes.writeUInt32LE(size.unpacked, at + 24);
    patched += 1;
  }
  if (patched !== Object.keys(sizes).length) throw new Error('a part to patch is not in the zip');
  return bytes;
}
