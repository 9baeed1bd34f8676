// The heap a process of einvoice runs with, set where the process starts (src/start.ts, and the standalone
// executable's entry, scripts/build-binaries.mjs), never inside a command.

/**
 * A run over a file keeps a result for each record: left alone, V8 lets the heap grow to several times what is alive
 * and its young generation to its largest, which at a million records is a gigabyte a CI runner may not have. Only a
 * command given a file is sized, as the settings cost other processes (the sandbox's server) collections they do not
 * need; and only once the CLI is loaded, so that its compile cache stays the one every command reads (Node keys the
 * cache by V8's flags) and loading it costs no more collections.
 */
export function sizeHeapFor(argv: readonly string[]): void {
  if (!readsAFile(argv)) return;
  process.getBuiltinModule('node:v8').setFlagsFromString('--heap-growing-percent=30 --semi-space-growth-factor=1');
}

/** True when the command line gives `--file` (`--file x`, `--file=x`, `-f x`, `-yf x`). */
function readsAFile(argv: readonly string[]): boolean {
  const args = argv.slice(2);
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some(
    (arg) => arg === '--file' || arg.startsWith('--file=') || /^-[A-Za-z]*f/.test(arg),
  );
}
