import { exitCodeTable } from './errors.js';

// `einvoice help <topic>`: the terminal's version of what error messages send the merchant to read ("see: einvoice
// help journal"), as gh's `help environment`. Plain text only: help loads commander and nothing more. The pages of
// docs/ say the same at length.

/** The exit codes, one line each, as `einvoice --help` lists them. */
export function exitCodeLines(): string[] {
  return exitCodeTable.map(({ code, meaning }) => `  ${String(code).padEnd(5)}${meaning}`);
}

/** `text` broken into lines of at most `width` characters, each starting with `indent`. */
function wrapped(text: string, indent: string, width = 80): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

const exitCodesNote =
  '`einvoice sandbox serve` and `einvoice sandbox ui` run until they are stopped: Ctrl-C or SIGTERM is how they ' +
  'end, and they exit 0.';

function exitCodes(): string {
  const lines = ['Exit codes of einvoice', ''];
  for (const { code, meaning, more } of exitCodeTable) {
    lines.push(`  ${String(code).padEnd(5)}${meaning}`);
    if (more) lines.push(...wrapped(more, ' '.repeat(7)));
  }
  lines.push('', ...wrapped(exitCodesNote, ''));
  return lines.join('\n');
}

const environment = `Environment variables einvoice reads

Choosing the service
  EINVOICE_TOKEN          the token of the selected environment; overrides the
                          profile's token, tokenEnv or tokenCommand
  EINVOICE_BASE_URL       the service's base address; overrides the profile's
                          baseUrl. With EINVOICE_TOKEN it makes an environment
                          the profile file lacks: --env staging works in CI with
                          no profile file
  EINVOICE_ENV            the environment when --env is not given (then the
                          profile's defaultEnv, then the built-in sandbox;
                          production is never chosen implicitly)
  EINVOICE_CONFIG         the profile file to read instead of searching for one
  EINVOICE_SANDBOX_STATE  the built-in sandbox's state file
  EINVOICE_LEDGER_DIR     the folder of the ledgers of what was sent (einvoice
                          invoices), instead of the state folder
  a tokenEnv variable     the variable named by environments.NAME.tokenEnv

The terminal
  CI                      set (and not "false" or "0"): never prompt; bulk
                          progress is a plain line every few seconds
  EINVOICE_ACTION         true (the GitHub Action sets it): what to change is
                          named as the workflow sets it, strict: false for
                          --no-strict
  NO_COLOR                set: no colour (as --no-color)
  FORCE_COLOR             set (and not "0"): colour even when not on a terminal
  TERM=dumb               no colour, no spinner, no progress bar
  BROWSER                 the browser that \`einvoice sandbox ui\` opens

Folders
  XDG_STATE_HOME          the sandbox's state, and drafts (~/.local/state)
  XDG_CONFIG_HOME         the global profile folder (~/.config)
  XDG_CACHE_HOME          Node's compile cache of einvoice (~/.cache);
                          NODE_DISABLE_COMPILE_CACHE=1 turns it off,
                          NODE_COMPILE_CACHE=DIR moves it

\`einvoice config show\` shows the environment, base URL and token source in use.`;

const journal = `The journal of a bulk run

A run over a file of many invoices records each record's steps in a journal
(planned, sent, created, failed, uncertain), so that running the same command
again resumes: created records are skipped, failed ones are sent again, and
uncertain ones (the answer was lost) are resent only when they carry a
businessReference or with --resend-uncertain; otherwise they are listed for you
to check, then settled by your word: --mark-created ROW or --mark-not-created
ROW (refunds: --mark-refunded INVOICE, --mark-not-refunded INVOICE), kept in the
journal and the ledger. A kill -9 at any instant loses nothing.

Where it is
  FILE.ENV.journal.ndjson beside the input, one per environment
  (FILE.ENV.shard-I-of-N.journal.ndjson with --shard), or --journal PATH, which
  stdin requires; its folder is made when missing (yours alone, 0700). Keep it
  until the batch is done.

What it belongs to
  One target: the environment, its service (base URL, or the built-in sandbox's
  state file) and the kind of invoice. A run against a journal of another target
  is refused, nothing sent: run against the journal's own target to resume it,
  or give this run a journal of its own with --journal PATH.

Held back
  A record whose content changed after it was sent is not sent again, rather
  than risk a second invoice: give it a new businessReference, or use a new
  --journal, to create the edited version as another invoice.

Only one run may use a journal at a time (parallel jobs: --shard I/N). After
\`einvoice sandbox reset\`, the journal still records its invoices as created:
delete it, or use a new --journal, to send the same file again.`;

const money = `Amounts and money

Amounts, prices, discounts and taxes are read as decimal text, wherever they
come from, and added in whole hundredths: never as floats, never rounded.

  12.50         at most two decimals, with a point: 12,50 is refused
  1250.00       no thousands separators in a flag or a JSON file; a CSV cell
                may hold them, quoted as spreadsheets write it: "1,250.00"
  amount        what the customer pays. With items and no --amount, it is the
                items' total: price x quantity minus item discounts
  taxes         a percentage, at most 100, sent as written: the service's
                interface does not say how it is applied, so einvoice never
                adds it to the amount or takes it from it
  discount      a recurring FLAT discount may not exceed the amount, a
                PERCENTAGE one 100, an item discount price x quantity

Ceilings: an amount, a price, a discount and the items' total at most
9,999,999,999,999.99; a quantity at most 999,999,999,999,999. A number no JSON
number carries exactly (more than 15 significant digits) is refused, naming the
field: it is never rounded.

In a JSON file, money and quantities are JSON numbers: "amount": "12.50" is
refused as text (a refund's amount alone may be a string).

The service's interface names no currency. The profile's currency key (EGP,
say) is shown beside amounts, and never sent.`;

const dates = `Dates

  sendingDate    the due date, sent as YYYY-MM-DD
  releaseDate    when the invoice is issued, sent as YYYY-MM-DDThh:mm:ss.sssZ
  expiryDate     when it can no longer be paid, sent in the same shape

Each is written as
  2026-12-31                  a calendar date (a day of your time zone)
  2026-12-31T21:59:59.000Z    an ISO 8601 instant
  today, tomorrow
  +7d, +2w, +1m               days, weeks or months from now (month ends clamp:
                              Jan 31 + 1m is the last day of February)

Days are the merchant's: the profile's timeZone (an IANA name, Africa/Cairo),
else TZ, else the system's zone. A bare date is the start of that day for
releaseDate and its last millisecond for expiryDate, sent as the UTC instant:
2026-12-31 in Cairo expires at 2026-12-31T21:59:59.999Z. today, tomorrow and
offsets count on that zone's calendar; a relative expiry (+30d) counts from the
sending date. Against a sandbox whose clock was moved, they count from the
sandbox's clock. The preview names the zone.

In CI (CI set), a run that reads such days with no zone configured (no
timeZone in the profile, no TZ) warns once, naming the zone it used: a
runner's zone is UTC, seldom the merchant's. Set timeZone: Africa/Cairo in the
profile, or TZ=Africa/Cairo in the job.

Dates run from 2000-01-01 to 2100-12-31; a day that does not exist is named
(February 2026 has no 30th day). An invoice whose expiry has passed, or is not
after its release and sending dates, is refused (exit 2); a bulk run holds such
records back unless --allow-expired is given. In a sheet (a CSV cell, or a
workbook's text cell), a date with slashes is read only as declared with
--date-format DD/MM/YYYY, never guessed.
A bulk run resolves relative dates once and records them: a rerun sends the
same dates.`;

const csv = `Sheets of invoices (CSV)

  einvoice template single --format csv > invoices.csv    a header to start from
  einvoice create single --file invoices.csv --dry-run    check every row

A --file ending in .csv or .tsv, or any --file (stdin too) with --format csv,
is a sheet: the header in row 1, one invoice per row, created exactly as the
records of a JSON file (validation up front, journal, resume, report).

  header        each column names a field by its path (customer.mobile,
                sendingDate) or its flag (customer-mobile, method); a column
                that is no field stops the run, naming the nearest one;
                --ignore-column NAME skips a column of your own
  items         columns per item (items[0].itemCode, items[0].price, ...), or
                one items column in the --item syntax, items separated by |, ;
                or a line break
  empty cell    not given: profile defaults and flags fill it
  numbers       as written, with a decimal point; "1,250.50" is 1250.50
  dates         YYYY-MM-DD, or with slashes as --date-format DD/MM/YYYY says
  separators    , ; tab or |, found from the header; else --delimiter ";"
  text          UTF-8 or UTF-16 (a byte order mark and CRLF line ends are
                fine); --encoding windows-1256 for Excel's plain "CSV (Comma
                delimited)" on an Arabic Windows. Other bytes are refused
  mobile        format the column as text, so the sheet keeps the + and any
                leading zero

Errors name the row as the spreadsheet shows it (the header is row 1) and the
column by its header and letter: row 17, column customer.mobile (C): ...`;

const excel = `Excel workbooks (.xlsx)

  einvoice template single --format xlsx --output a.xlsx    a workbook to fill
  einvoice create single --file a.xlsx --dry-run            check every row

A --file ending in .xlsx (or --format xlsx) is read as Excel holds it, as a
CSV sheet's rows are (einvoice help csv): the same header names, the first
worksheet or --sheet NAME, blank rows skipped.

  text          as it is, Arabic included
  numbers       the decimal Excel shows (150.55); more decimals than the
                currency are refused
  dates         calendar dates (1900 and 1904 systems); a date-time is that
                wall clock in the profile's time zone; a date typed as text
                with slashes (05/12/2026) as --date-format DD/MM/YYYY says
  formulas      their saved value; none saved, or an error (#N/A, #VALUE!),
                is refused
  mobile        a number has lost its leading 0: warned; format the column
                as text (the template does), or --fix-mobiles sends 0 + it
  dashboard     Customer Name, Customer Mobile Number, Customer Email, Invoice
                Amount, Businesses reference number, Note are read as their
                fields; dates from --sending-date, --release-date, --expiry-date

Errors name the cell as Excel does: row 4, column amount (Sheet1!D4): ...
A macro workbook (.xlsm), a zip bomb or an oversized table of texts is
refused unread (exit 2). --report report.xlsx writes the report as a workbook.`;

const reconcile = `Your orders against the invoices sent (einvoice invoices reconcile)

  einvoice template orders > orders.csv        sample orders to try it on
  einvoice invoices reconcile orders.csv       the totals, then rows to look at

Each order is matched with the invoices of this machine's ledger by its
businessReference: trimmed, Arabic-Indic digits read as 0-9 (rows show each
as written). Amounts are compared exactly. Nothing is sent: it works offline.

  matched              one order, one invoice, the same amount
  amount-differs       another amount; difference = ledger minus orders
  not-invoiced         an order with no invoice
  not-in-orders        an invoice with no order
  duplicate-in-orders  a reference on two orders or more
  duplicate-in-ledger  two invoices or more for one reference
  uncertain            the invoice, or a refund of it, may or may not exist
  refunded             invoiced as ordered, then refunded wholly or partly

A row takes the first class that applies, in this order: duplicate-in-orders,
duplicate-in-ledger, uncertain, not-invoiced or not-in-orders, amount-differs,
refunded, matched. A request the service refused is no invoice.

  columns       businessReference and amount; a shop's own with
                --reference-column "Order No" --amount-column Total; any
                other column is skipped
  --since       only invoices sent on or after a day (--until: on or before)
  --fail-on     exit 11 when a class named has rows: amount-differs,uncertain
  --emit-missing FILE   the not-invoiced orders, as create single --file takes
  --json, --report FILE (.csv, .xlsx, .xml), GitHub annotations: every row`;

/** The topics of `einvoice help <topic>`, each with its text. */
export const helpTopics: Readonly<Record<string, () => string>> = {
  'exit-codes': exitCodes,
  environment: () => environment,
  journal: () => journal,
  money: () => money,
  dates: () => dates,
  csv: () => csv,
  excel: () => excel,
  reconcile: () => reconcile,
};

/** The text of help topic `name`, ending with a line break, or undefined when there is no such topic. */
export function helpTopic(name: string): string | undefined {
  return Object.hasOwn(helpTopics, name) ? `${helpTopics[name]!()}\n` : undefined;
}
