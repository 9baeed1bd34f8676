import { statSync } from 'node:fs';

// The heap a process of einvoice runs with, set where the process starts (src/start.ts, and the standalone
// executable's entry, scripts/build-binaries.mjs), never inside a command.

/** V8's settings for a long run: the heap grows by 30% at most, and its young generation stays at its first size. */
export const longRunHeapFlags = '--heap-growing-percent=30 --semi-space-growth-factor=1';

/**
 * A file from this size up (an eighth of it for a workbook) is a long run. Below it, V8's own sizing keeps a run's
 * memory modest and costs less CPU per record, which is what sets the pace on a runner whose cores are busy.
 */
export const longRunFileBytes = 8 * 1024 ** 2;

/**
 * A run over a file keeps a result for each record: left alone, V8 lets the heap grow to several times what is alive
 * and its young generation to its largest, which at a million records is a gigabyte a CI runner may not have. Only a
 * command given a large file (or stdin, whose size is not known) is sized: the settings cost a run the collections it
 * does not need, and other processes (the sandbox's server) too; and only once the CLI is loaded, so that its compile
 * cache stays the one every command reads (Node keys the cache by V8's flags) and loading it costs no more collections.
 */
export function sizeHeapFor(argv: readonly string[]): void {
  const flags = heapFlagsFor(argv, fileBytes);
  if (flags) process.getBuiltinModule('node:v8').setFlagsFromString(flags);
}

/** The heap settings a command line needs, or undefined; `sizeOf` says how large a file is (undefined: unknown). */
export function heapFlagsFor(
  argv: readonly string[],
  sizeOf: (path: string) => number | undefined,
): string | undefined {
  const file = fileOf(argv);
  if (file === undefined) return undefined;
  const size = file === '-' ? undefined : sizeOf(file);
  // A workbook's rows are packed in a zip, far smaller than as CSV.
  const longRun = /\.xlsx$/i.test(file) ? longRunFileBytes / 8 : longRunFileBytes;
  return size === undefined || size >= longRun ? longRunHeapFlags : undefined;
}

function fileBytes(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/** The file the command line gives (`--file x`, `--file=x`, `-f x`, `-yf x`, `-fx`), or undefined. */
function fileOf(argv: readonly string[]): string | undefined {
  const args = argv.slice(2);
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  for (const [index, arg] of options.entries()) {
    if (arg.startsWith('--file=')) return arg.slice('--file='.length);
    // -f after the flags that take no value (-y, -h, -V), as commander reads a group of them.
    const short = /^-[yhV]*f(.*)$/.exec(arg);
    if (arg === '--file' || short) {
      const attached = short?.[1] ?? '';
      // A file named after the flag; a flag given without one is commander's to refuse.
      return attached || (options[index + 1] ?? '-');
    }
  }
  return undefined;
}
