// Node's fs as its CommonJS object: an ES import of a built-in builds a namespace of every export, and fs's lazy
// ones (fs.promises) load Node's streams and readline, some 5 ms of a start-up that is otherwise 20.
const { readFileSync, writeSync } = process.getBuiltinModule('node:fs');

// `einvoice --help`, `einvoice <command> --help` and `--version` are answered without loading commander and the
// command tree: the build renders every command's help with commander (src/help-render.ts) into dist/help.json,
// as oclif's manifest does for its CLIs. It holds the text commander prints when stdout is not a terminal (80
// columns); on a terminal commander renders the help live, wrapped to the terminal's width.

/** Every command's help text by command path ("" for the root, "create single"), the help topics, and the version. */
export interface HelpCache {
  version: string;
  helps: Record<string, string>;
  /** The text of `einvoice help <topic>` by topic. */
  topics?: Record<string, string>;
}

/** Names of commands, the only words a help request from the cache may hold before `--help`. */
const commandName = /^[a-z][a-z-]*$/;

/**
 * What `einvoice <args>` prints when it only asks for help or for the version, or undefined when the arguments ask
 * for anything else (the command tree then answers them).
 */
export function cachedOutput(args: readonly string[], cache: HelpCache): string | undefined {
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) return `${cache.version}\n`;
  const topic = args.length === 2 && args[0] === 'help' ? args[1] : undefined;
  if (topic !== undefined && cache.topics && Object.hasOwn(cache.topics, topic)) return cache.topics[topic];
  let path: readonly string[];
  const last = args.at(-1);
  if (last === '--help' || last === '-h') path = args.slice(0, -1);
  else if (args[0] === 'help') path = args.slice(1);
  else return undefined;
  if (!path.every((word) => commandName.test(word))) return undefined;
  return Object.hasOwn(cache.helps, path.join(' ')) ? cache.helps[path.join(' ')] : undefined;
}

/** The cached answer to `args` from the build's help file (dist/help.json), if there is one. */
export function helpFromCache(args: readonly string[], helpFile: string | URL): string | undefined {
  let cache: HelpCache;
  try {
    cache = JSON.parse(readFileSync(helpFile, 'utf8')) as HelpCache;
  } catch {
    return undefined;
  }
  return cachedOutput(args, cache);
}

/**
 * Writes `text` to standard output with plain writes to its descriptor: `process.stdout` would first build a stream,
 * loading Node's net and stream modules, some 4 ms of a start-up that is otherwise 25. A pipe that cannot take it all
 * at once gets the rest through `process.stdout`; a reader that has gone (`| head -1`) gets nothing more.
 */
export function printToStdout(text: string): void {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
    process.stdout.on('error', () => {});
    process.stdout.write(bytes.subarray(written));
  }
}
