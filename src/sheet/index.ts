// Reading files of many records (CSV in every encoding, workbooks, JSON and NDJSON): rows, cells and column sets, for
// the bulk runs and for commands that send nothing. Outside src/sheet/, only this module is imported
// (.dependency-cruiser.cjs).

export { readInvoiceFile } from './input-format.js';
export { recordsOf, type ManyInvoices, type SheetOptions } from './sheet-records.js';
export { ndjsonRecords, recordAndLine, type IssuePlace, type RecordFinding, type SourceRecord } from './records.js';
export {
  invoiceColumnsOf,
  orderColumns,
  refundColumns,
  resolveColumn,
  type ColumnSet,
  type OrderColumnNames,
  type OrderColumnSet,
  type ResolvedColumn,
} from './csv-columns.js';
export { HeaderError } from './csv-records.js';
