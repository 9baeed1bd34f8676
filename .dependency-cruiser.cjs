// The layers of src/ (ARCHITECTURE.md): commands -> bulk -> sheet -> (input, api, output, config, ledger) -> schemas ->
// base; the sheet readers use input and the schemas only.
// The composition roots (index, program, session, service-connection, lib, start, heap-size and the help topics) put the
// layers together and may use any of them. `npm run lint` runs this check; test/architecture/layers.test.ts proves
// it fails on an import that breaks a rule.

/**
 * The bottom layer: the product's errors, the command context, its version, the files it ships, its folders, its lock of
 * a file, its private files, its SQLite files, and its workbook writer (here, not in output, because the sandbox's
 * dashboard offers its invoices as a workbook too, and the sandbox may use only the schemas and the base). Its CSV
 * cell writer too: a bulk run's report (the engine may not use output) and the commands' exports and templates write
 * their cells with the one guard against formulas.
 */
const base =
  '^src/(errors|context|version|package-files|file-lock|private-file|local-database|workbook-writer|csv-writer)[.]ts$|^src/config/paths[.]ts$';
const roots = '^src/(index|program|session|service-connection|lib|start|heap-size|help-topics)[.]ts$';
const peers = '^src/(input|api|output|config|ledger)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle makes load order matter and the layers meaningless.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'base-is-the-bottom',
      severity: 'error',
      comment: 'Errors, the context and the product paths import nothing of the product.',
      from: { path: base },
      to: { path: '^src/', pathNot: base },
    },
    {
      name: 'schemas-use-only-base',
      severity: 'error',
      comment: 'The schemas are the rules; they know nothing of the command line, HTTP or the terminal.',
      from: { path: '^src/schemas/' },
      to: { path: '^src/', pathNot: `^src/schemas/|${base}` },
    },
    {
      name: 'peers-stay-apart',
      severity: 'error',
      comment:
        "input, api, output, config and ledger (the merchant's record of what was sent) each stand on the schemas " +
        'alone; a command composes them. A type may be shared (it names the data handed across; no code of the ' +
        "other layer runs): the ledger reads the type of a journal's entries, output that of a record's findings. Nor " +
        'do they read a sheet: that is the layer above them (src/sheet), which reads with input.',
      from: { path: '^src/(input|api|output|config|ledger)/' },
      to: { path: `${peers}|^src/(bulk|sheet)/`, pathNot: `^src/$1/|${base}`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'bulk-uses-input-and-schemas',
      severity: 'error',
      comment:
        'A bulk run reads each record as the one-invoice input does (src/input), and leaves HTTP, the terminal, ' +
        'the profile and the ledger to the command (it hears each outcome through a hook); types may be shared.',
      from: { path: '^src/bulk/' },
      to: { path: '^src/(api|output|config|ledger)/', pathNot: base, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'bulk-names-no-type-of-output-or-ledger',
      severity: 'error',
      comment:
        "Output and the ledger name the types of what a run hands them (its summary, its results, a journal's " +
        'entries); a type named back would make the two layers a circle, an import that runs back up.',
      from: { path: '^src/bulk/' },
      to: { path: '^src/(output|ledger)/' },
    },
    {
      name: 'sheet-uses-input-and-schemas',
      severity: 'error',
      comment:
        'The sheet readers turn bytes into records with the input layer (text-encoding, the invoice fields) and the ' +
        'schemas; they know nothing of sending, the service, the ledger, the terminal or a bulk run, not even a type, ' +
        'so a command that reads a sheet and sends nothing uses them as a bulk run does.',
      from: { path: '^src/sheet/' },
      to: { path: '^src/(api|output|config|ledger|bulk)/' },
    },
    {
      name: 'commands-are-the-top',
      severity: 'error',
      comment: 'Only the composition roots and other commands use a command.',
      from: { path: '^src/', pathNot: `^src/commands/|${roots}` },
      to: { path: `^src/commands/|${roots}` },
    },
    {
      name: 'bulk-through-its-index',
      severity: 'error',
      comment:
        'Outside the bulk engine, only its public index is used (output names the types of what a run hands it ' +
        'through it too): the engine may reshape its modules without a command noticing.',
      from: { path: '^src/', pathNot: '^src/bulk/' },
      to: { path: '^src/bulk/', pathNot: '^src/bulk/index[.]ts$' },
    },
    {
      name: 'sheet-through-its-index',
      severity: 'error',
      comment:
        'Outside the sheet readers, only their public index is used: the bulk engine and the commands read a file ' +
        'of many records the same way, and the readers may reshape their modules without either noticing.',
      from: { path: '^src/', pathNot: '^src/sheet/' },
      to: { path: '^src/sheet/', pathNot: '^src/sheet/index[.]ts$' },
    },
    {
      name: 'sandbox-stands-alone',
      severity: 'error',
      comment: 'The sandbox is the service, not a client: it reuses the schemas and nothing of the command line.',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/', pathNot: `^src/sandbox/|^src/schemas/|${base}` },
    },
    {
      name: 'sandbox-through-its-index',
      severity: 'error',
      comment: 'Outside the sandbox, only its public index is used.',
      from: { path: '^src/', pathNot: '^src/sandbox/' },
      to: { path: '^src/sandbox/', pathNot: '^src/sandbox/index[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|dist)/' },
  },
};
