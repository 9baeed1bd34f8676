// Builds dist/:
// - dist/cli.cjs: the CLI, one CommonJS bundle, which bin/einvoice.cjs runs through dist/start.cjs, a small bundle
//   that turns on Node's compile cache before it loads the CLI's;
// - every other module, compiled by tsc with its type declarations: the programmatic API (dist/lib.js).
//
// `--if-stale` builds only when a source is newer than the last build's stamp (the tests' global setup, `npm ci` and
// `npm pack` through `prepare`), so a built clone is not built again.
//
// The CLI is one bundle, because reading one file that Node's compile cache keeps compiled starts faster than
// resolving hundreds of small modules (zod alone is over 200). CommonJS, because an ES import of a Node built-in
// builds a namespace of all its exports, which for node:http loads modules no command needs, and because Node then
// starts no ES module loader. Each import() of a command stays a function that evaluates its part of the bundle only
// when that command runs, so `--help` evaluates commander alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const stamp = 'dist/.built';

/** The newest modification time of the files a build reads: src/, its tsconfig and this script. */
function newestSource(folder) {
  return readdirSync(folder, { withFileTypes: true }).reduce(
    (newest, entry) => {
      const path = join(folder, entry.name);
      return Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
    },
    Math.max(...['tsconfig.build.json', 'scripts/build.mjs'].map((file) => statSync(file).mtimeMs)),
  );
}

// The package's folder, wherever this runs from (npm runs `prepare` there; the tests' setup from the clone).
process.chdir(fileURLToPath(new URL('..', import.meta.url)));
if (process.argv.includes('--if-stale') && existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource('src')) {
  process.exit(0);
}

// Imported here, so a build that is not needed does not load esbuild.
const { build } = await import('esbuild');

await rm('dist', { recursive: true, force: true });

await build({
  entryPoints: { cli: 'src/index.ts', start: 'src/start.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  logLevel: 'warning',
  // typescript and jiti load only for TypeScript profile files, which einvoice does not search for.
  external: ['typescript', 'jiti'],
  minifyWhitespace: true,
  minifySyntax: true,
  // src/version.ts and src/package-files.ts find package.json and the shipped files from the module's URL.
  define: { 'import.meta.url': '__einvoiceModuleUrl' },
  banner: { js: "const __einvoiceModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
// Written once dist/ is complete: `--if-stale` compares the sources with it.
await writeFile(stamp, `${new Date().toISOString()}\n`);
