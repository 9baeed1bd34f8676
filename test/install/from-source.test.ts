import { execFile } from 'node:child_process';
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { largeFolder, removedAfterAll } from '../helpers/large-folders.js';
import { copyOfRepository, gitRepositoryOfRepository, repositoryFolder } from '../helpers/repository-copy.js';

// einvoice installed the ways that need no release: from git, from a clone's folder, from the tarball a clone packs,
// each into an empty global prefix with the npm and Node of this run (`npm run test:install` on the project's Node 24,
// `npm run test:install:node22` on Node 22), then run with nothing else around. Each install builds einvoice from
// the lockfile, with the packages from npm's cache (`--prefer-offline`): a minute or more each, so `npm test` leaves
// them to CI (.ci/run).

const run = promisify(execFile);
const { version } = JSON.parse(readFileSync(join(repositoryFolder, 'package.json'), 'utf8')) as { version: string };
// This run's Node first, so npm, the build it starts and the installed `einvoice` all run on it.
const path = [dirname(process.execPath), process.env.PATH].join(delimiter);

/** `npm install --global SPEC` into a new empty prefix; returns the prefix and npm's stderr. */
async function installGlobally(spec: string) {
  const prefix = largeFolder('prefix');
  const { stderr } = await run(
    'npm',
    ['install', '--global', spec, '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: largeFolder('cwd'), env: { ...process.env, PATH: path }, maxBuffer: 64 * 1024 * 1024 },
  );
  return { prefix, stderr, installed: join(prefix, 'lib', 'node_modules', 'einvoice') };
}

/** Runs the installed `einvoice` with a clean home and working folder, on this run's Node. */
function einvoice(prefix: string, ...args: string[]) {
  const home = largeFolder('home');
  return run(join(prefix, 'bin', 'einvoice'), args, { cwd: home, env: { PATH: path, HOME: home, CI: 'true' } });
}

/** What an installed einvoice must do: tell its version and read the built-in sandbox's statistics. */
async function expectWorking(prefix: string) {
  expect((await einvoice(prefix, '--version')).stdout.trim()).toBe(version);
  const stats = await einvoice(prefix, 'stats', '--env', 'sandbox', '--json');
  expect(JSON.parse(stats.stdout)).toMatchObject({ allInvoices: { totalCount: 8 } });
}

describe.concurrent(`einvoice installed without a registry release, on Node.js ${process.version}`, () => {
  it('npm install -g git+file://<clone> gives an einvoice --version that works', async () => {
    const repository = removedAfterAll(gitRepositoryOfRepository('git'));
    const { prefix, installed } = await installGlobally(`git+${pathToFileURL(repository).href}`);
    // A folder of its own, not a link to the temporary clone npm built it in and then deleted.
    expect(lstatSync(installed).isDirectory()).toBe(true);
    await expectWorking(prefix);
    // Every dependency in place: npm ls fails on a missing one.
    await run('npm', ['ls', '--global', '--all', '--prefix', prefix], { env: { ...process.env, PATH: path } });
  }, 600_000);

  it("npm install -g <a clone's folder> builds the clone, then the tarball it packs installs", async () => {
    const clone = removedAfterAll(copyOfRepository('clone'));
    const linked = await installGlobally(clone);
    // npm links a folder: the clone itself is the installed einvoice, built in place.
    expect(realpathSync(linked.installed)).toBe(realpathSync(clone));
    await expectWorking(linked.prefix);

    const packed = largeFolder('pack');
    const { stdout } = await run('npm', ['pack', '--pack-destination', packed, '--json'], {
      cwd: clone,
      env: { ...process.env, PATH: path },
    });
    const [pack] = JSON.parse(stdout) as Array<{ filename: string }>;
    const fromTarball = await installGlobally(join(packed, pack?.filename ?? 'no tarball'));
    expect(lstatSync(fromTarball.installed).isDirectory()).toBe(true);
    await expectWorking(fromTarball.prefix);
  }, 600_000);
});
