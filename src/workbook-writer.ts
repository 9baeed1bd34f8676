import type { Writable } from 'node:stream';
import { WorkbookWriter } from '@cj-tech-master/excelts';

type SheetWriter = ReturnType<WorkbookWriter['addWorksheet']>;

// The one way einvoice writes an .xlsx workbook (a bulk run's report, the templates, the ledger's export, the
// sandbox's download): one worksheet streamed row by row, so memory stays flat however many rows, with typed columns
// as a merchant who lives in Excel expects them. In the bottom layer, since the sandbox may use only the base.
//
// Right to left: the sheet itself stays left to right (its headers are field names, its amounts and dates read left
// to right), and each text cell that holds Arabic is aligned and read right to left, as Excel shows Arabic text typed
// into a cell. `rightToLeft` turns the whole sheet (column A on the right), for a sheet that is Arabic throughout.

/** How a column's cells are written. */
export type WorkbookColumnType = 'text' | 'amount' | 'number' | 'date' | 'date-time' | 'boolean';

/** One column: its header, its type, and a note on its header cell saying what it takes. */
export interface WorkbookColumn {
  header: string;
  type: WorkbookColumnType;
  /** Shown when the header cell is pointed at (an Excel note). */
  note?: string;
  /** In characters; from the header when absent. */
  width?: number;
}

/** The worksheet to write. */
export interface WorkbookSheet {
  name: string;
  columns: readonly WorkbookColumn[];
  /** The whole sheet right to left. */
  rightToLeft?: boolean;
}

/**
 * A cell's value: text, a number (or its decimal text, for an amount), a boolean, a date as `YYYY-MM-DD`, or a
 * `Date` whose UTC fields are the calendar date and wall-clock time to show (a workbook's dates have no zone).
 */
export type WorkbookValue = string | number | boolean | Date | null | undefined;

/** Excel's number formats of each type: text (`@`) keeps a leading 0 a merchant types into the column. */
const numberFormats: Record<WorkbookColumnType, string | undefined> = {
  text: '@',
  amount: '#,##0.00',
  number: undefined,
  date: 'yyyy-mm-dd',
  'date-time': 'yyyy-mm-dd hh:mm',
  boolean: undefined,
};

/** Arabic letters, in the blocks Arabic text is written with. */
const arabic = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;
const rtlAlignment = { horizontal: 'right', readingOrder: 'rtl' } as const;

/** A workbook being written: rows go out as they are added. */
export class WorkbookStream {
  readonly #writer: WorkbookWriter;
  readonly #sheet: SheetWriter;
  readonly #columns: readonly WorkbookColumn[];

  private constructor(writer: WorkbookWriter, sheet: SheetWriter, columns: readonly WorkbookColumn[]) {
    this.#writer = writer;
    this.#sheet = sheet;
    this.#columns = columns;
  }

  /** Starts a workbook of one worksheet on `stream`, its header row written and frozen. */
  static start(stream: Writable, sheet: WorkbookSheet): WorkbookStream {
    // Inline strings: a shared-strings table would be held in memory until the end.
    const writer = new WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
    const worksheet = writer.addWorksheet(sheet.name, {
      views: [{ state: 'frozen', ySplit: 1, xSplit: 0, rightToLeft: Boolean(sheet.rightToLeft) }],
    });
    worksheet.columns = sheet.columns.map((column) => ({
      width: column.width ?? Math.max(12, column.header.length + 2),
      style: numberFormats[column.type] ? { numFmt: numberFormats[column.type] } : {},
    }));
    const header = worksheet.addRow(sheet.columns.map((column) => column.header));
    header.font = { bold: true };
    sheet.columns.forEach((column, index) => {
      const cell = header.getCell(index + 1);
      // The header is text whatever its column holds.
      cell.numFmt = '@';
      if (column.note) cell.note = column.note;
    });
    header.commit();
    return new WorkbookStream(writer, worksheet, sheet.columns);
  }

  /** Adds one row, a value per column. */
  addRow(values: readonly WorkbookValue[]): void {
    const row = this.#sheet.addRow(values.map((value, index) => cellValue(value, this.#columns[index]?.type)));
    values.forEach((value, index) => {
      if (typeof value === 'string' && arabic.test(value)) row.getCell(index + 1).alignment = rtlAlignment;
    });
    row.commit();
  }

  /** Ends the workbook: the rest of its parts are written and the stream ended. */
  async end(): Promise<void> {
    this.#sheet.commit();
    await this.#writer.commit();
  }
}

/** A value as its column's type writes it. */
function cellValue(
  value: WorkbookValue,
  type: WorkbookColumnType | undefined,
): string | number | boolean | Date | null {
  if (value === undefined || value === null || value === '') return null;
  if ((type === 'amount' || type === 'number') && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) {
    return Number(value);
  }
  if ((type === 'date' || type === 'date-time') && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return new Date(`${value}T00:00:00.000Z`);
  }
  return value;
}
