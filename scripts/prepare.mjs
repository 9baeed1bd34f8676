// npm's `prepare`: what makes a working einvoice of a checkout that has no dist/ (dist/ is built, never committed).
// npm runs it after `npm ci` in a clone, before `npm pack` and `npm publish`, when a clone's folder is installed
// (`npm install -g ./einvoice`), and when einvoice is installed from git (`npm install -g git+https://...`): npm
// clones the repository into a temporary folder, prepares it there, then packs it and installs the package.
//
// 1. npm before 12 prepares a git dependency of a global install with an inner `npm install` that inherits
//    `--global`: it links the temporary clone into the global folder in place of the empty folder the install is
//    about to fill, so the install would fill the clone, which npm then deletes, and leave `einvoice` a dangling link
//    (npm/cli#4148; npm 12 passes --global=false, npm/pacote#494). A link into npm's own temporary folder is always
//    that: put the empty folder back, first. It holds only because npm extracts nothing else into that folder
//    meanwhile: package.json bundles one small dependency (`bundleDependencies`), and npm extracts a package that
//    bundles any before all other packages, so einvoice's dependencies go in after it is prepared and packed.
// 2. The build's tools, when missing: that inner `npm install` leaves them out (and a clone's folder may be installed
//    before `npm ci`). Exactly what the lockfile says, as `npm ci` does.
// 3. The build, when a source is newer than dist/ (a built clone is not built again).
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;

if (isNpmTemporaryGlobalLink()) {
  rmSync(globalFolderOf(), { force: true });
  mkdirSync(globalFolderOf());
}

if (!existsSync(join(root, 'node_modules', 'esbuild', 'package.json'))) {
  if (!env.npm_execpath) throw new Error('Run `npm ci` first: the build needs the dependencies the lockfile names.');
  // This folder's own install, whatever the install that runs this script is: not global, not into its prefix.
  const { npm_config_prefix: _prefix, ...installEnv } = env;
  execFileSync(
    process.execPath,
    [env.npm_execpath, 'ci', '--global=false', '--include=dev', '--no-audit', '--no-fund'],
    { cwd: root, env: installEnv, stdio: 'inherit' },
  );
}

execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });

/** Where a global install puts this package. */
function globalFolderOf() {
  const { name } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const modules = join(env.npm_config_global_prefix, process.platform === 'win32' ? '' : 'lib', 'node_modules');
  return join(modules, name);
}

/** True when npm has linked this folder, a temporary clone in npm's cache, into the global folder. */
function isNpmTemporaryGlobalLink() {
  if (env.npm_config_global !== 'true' || !env.npm_config_global_prefix || !env.npm_config_cache) return false;
  const temporary = realpathOrUndefined(join(env.npm_config_cache, '_cacache', 'tmp'));
  const here = realpathSync(root);
  const installed = globalFolderOf();
  return (
    temporary !== undefined &&
    here.startsWith(temporary + sep) &&
    lstatSync(installed, { throwIfNoEntry: false })?.isSymbolicLink() === true &&
    realpathOrUndefined(installed) === here
  );
}

/** The real path of `path`, or undefined when nothing is there. */
function realpathOrUndefined(path) {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
