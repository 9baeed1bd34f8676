import { cosmiconfig, type Loader } from 'cosmiconfig';
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../errors.js';
import { exampleProfileFile } from '../package-files.js';
import { configSchema, type Config } from '../schemas/config.js';
import { validate } from '../schemas/validate.js';

const moduleName = 'einvoice';

/** The places searched, in each folder from the working directory up to the home folder. */
export const configSearchPlaces = [
  'package.json',
  '.einvoicerc',
  '.einvoicerc.json',
  '.einvoicerc.yaml',
  '.einvoicerc.yml',
  'einvoice.config.js',
  'einvoice.config.mjs',
  'einvoice.config.cjs',
];

/** A profile file written as JavaScript: what it exports as default (or `module.exports`). */
const loadJavaScript: Loader = async (filepath) =>
  ((await import(pathToFileURL(filepath).href)) as { default?: unknown }).default;

/** A profile file in TypeScript, which would need the TypeScript compiler at run time. */
const refuseTypeScript = (filepath: string): never => {
  throw new Error(
    `${basename(filepath)} is TypeScript, which einvoice does not read: write it as JSON, YAML or JavaScript`,
  );
};

const javaScriptExtensions = ['.js', '.mjs', '.cjs'] as const;

/** The loaders cosmiconfig does not have right for einvoice. */
const loaders = {
  ...Object.fromEntries(javaScriptExtensions.map((extension) => [extension, loadJavaScript])),
  '.ts': refuseTypeScript,
};

/**
 * Where profile files are searched for: from the working directory up to the home folder, then cosmiconfig's
 * global folder ($XDG_CONFIG_HOME/einvoice/config.*).
 */
const searchOptions = {
  searchPlaces: configSearchPlaces,
  searchStrategy: 'global',
  stopDir: homedir(),
  cache: false,
} as const;

/** A profile file once read and validated. */
export interface LoadedConfig {
  config: Config;
  /** Absolute path of the file, or undefined when no file was found. */
  filepath?: string;
  /** True when the file can be read by group or others (it may hold a token). */
  readableByOthers: boolean;
}

/**
 * Finds and validates the profile file: `explicitPath` (from --config or EINVOICE_CONFIG) if given, else the first
 * file found from `cwd` upwards. An invalid file is a usage error naming the file and each field.
 */
export async function loadConfig(cwd: string, explicitPath?: string): Promise<LoadedConfig> {
  const explorer = cosmiconfig(moduleName, { ...searchOptions, loaders });
  let result: Awaited<ReturnType<typeof explorer.search>>;
  try {
    result = explicitPath ? await explorer.load(resolve(cwd, explicitPath)) : await explorer.search(cwd);
  } catch (error) {
    // Parser messages (YAML, JSON) name the line and column over a few lines; keep them, within one screen.
    const reason = error instanceof Error ? error.message.split('\n').slice(0, 6).join('\n').trim() : String(error);
    throw new UsageError(`Cannot read the profile file${explicitPath ? ` ${explicitPath}` : ''}: ${reason}`, {
      cause: error,
    });
  }
  if (!result) return { config: {}, readableByOthers: false };

  const parsed = validate(configSchema, result.isEmpty ? {} : result.config);
  if (!parsed.success) {
    throw new UsageError(`The profile file ${result.filepath} is invalid.`, {
      issues: parsed.issues,
      hint: `See ${exampleProfileFile} for the shape of the file.`,
    });
  }
  return { config: parsed.data, filepath: result.filepath, readableByOthers: isReadableByOthers(result.filepath) };
}

function isReadableByOthers(filepath: string): boolean {
  if (process.platform === 'win32') return false;
  try {
    return (statSync(filepath).mode & 0o044) !== 0;
  } catch {
    return false;
  }
}
