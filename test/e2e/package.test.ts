import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { largeFolder } from '../helpers/large-folders.js';

// The package as npm publishes it: packed, installed globally into an empty prefix, and run with nothing else
// around (a fresh HOME and working folder). The packing uses --ignore-scripts: the tests' global setup has just
// built dist/, and rebuilding it here would rewrite files that tests running beside this one are executing.

const repo = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

interface PackResult {
  filename: string;
  files: Array<{ path: string }>;
}

async function npm(args: string[], cwd = repo): Promise<string> {
  const { stdout } = await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** The files `npm pack` would put in the package. */
async function packedFiles(): Promise<string[]> {
  const [pack] = JSON.parse(await npm(['pack', '--dry-run', '--json', '--ignore-scripts'])) as PackResult[];
  return (pack as PackResult).files.map((file) => file.path).sort();
}

describe('the npm package', () => {
  it('ships the built code, bin, the dashboard, README, the example profile and LICENSE, and nothing else', async () => {
    const files = await packedFiles();
    // One small dependency is bundled, so that npm extracts einvoice before its dependencies (scripts/prepare.mjs).
    const bundled = files.filter((path) => path.startsWith('node_modules/'));
    expect(bundled).toContain('node_modules/shell-quote/package.json');
    expect(bundled.filter((path) => !path.startsWith('node_modules/shell-quote/'))).toEqual([]);
    const outside = files.filter((path) => !path.startsWith('dist/') && !path.startsWith('node_modules/'));
    expect(outside).toEqual([
      '.eintvoicerc.example',
      'LICENSE',
      'README.md',
      'bin/einvoice.cjs',
      'dashboard/dashboard.css',
      'dashboard/dashboard.js',
      'dashboard/index.html',
      'package.json',
    ]);
    const built = files.filter((path) => path.startsWith('dist/'));
    expect(built).toEqual(expect.arrayContaining(['dist/start.cjs', 'dist/cli.cjs', 'dist/lib.js', 'dist/lib.d.ts']));
    // Only compiled modules and their declarations: no build stamp, no source maps, no tests.
    expect(built.filter((path) => !/\.(c?js|d\.ts)$/.test(path))).toEqual([]);
    expect(built.filter((path) => /test|\.map$/.test(path))).toEqual([]);
  });

  it('installs globally from the tarball and runs with nothing else present', async () => {
    const packDir = largeFolder('pack');
    const [pack] = JSON.parse(
      await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', packDir]),
    ) as PackResult[];
    const tarball = join(packDir, (pack as PackResult).filename);
    const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };
    const prefix = largeFolder('prefix');
    // The dependencies come from npm's cache, where installing this repository put them. npm's own log level, so
    // its warnings show. npm 11 lists einvoice's own `prepare` (the build of a git checkout) among the install scripts
    // it has not been told to allow, though it never runs it from a tarball: that, and nothing else.
    const install = await run(
      'npm',
      ['install', '--global', tarball, '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund'],
      { cwd: packDir },
    );
    const warnings = install.stderr.split('\n').filter((line) => /warn/i.test(line));
    expect(warnings.filter((line) => !line.startsWith('npm warn install-scripts'))).toEqual([]);
    const scripts = warnings.filter((line) => /^npm warn install-scripts {3}\S/.test(line));
    expect(scripts.map((line) => line.replace(/^npm warn install-scripts +/, ''))).toEqual(
      scripts.length === 0 ? [] : [`einvoice@${version} (prepare: node scripts/prepare.mjs)`],
    );

    const home = largeFolder('home');
    const cwd = largeFolder('cwd');
    const env = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: home, CI: 'true' };
    const einvoice = (...args: string[]) => run(join(prefix, 'bin', 'einvoice'), args, { cwd, env });

    expect((await einvoice('--version')).stdout.trim()).toBe(version);
    expect((await einvoice('--help')).stdout).toMatch(/^Usage: einvoice \[options\] \[command\]/);
    const stats = await einvoice('stats', '--env', 'sandbox', '--json');
    expect(JSON.parse(stats.stdout)).toMatchObject({ allInvoices: { totalCount: 8 } });
    const table = await einvoice('stats', '--env', 'sandbox');
    expect(table.stdout).toMatch(/^Paid\s+2\s+630\.50/m);

    // Without a profile file, the hint names the installed example, by a path that exists.
    const example = join(prefix, 'lib', 'node_modules', 'einvoice', '.eintvoicerc.example');
    const noProfile = (await einvoice('stats', '--env', 'staging').catch((error: unknown) => error)) as {
      code: number;
      stderr: string;
    };
    expect(noProfile.code).toBe(2);
    expect(noProfile.stderr).toContain(`Create .einvoicerc (see ${example})`);
    expect(readFileSync(example, 'utf8')).toContain('# einvoice profile file.');

    // The sandbox finds the dashboard's files where the package installed them.
    const served = await run(
      process.execPath,
      [
        '--input-type=module',
        '--eval',
        [
          "const { startSandbox } = await import('einvoice');",
          'const sandbox = await startSandbox({ ui: true });',
          'const response = await fetch(`${sandbox.url}/__sandbox/ui/dashboard.js`);',
          'console.log(response.status, (await response.text()).length > 0);',
          'await sandbox.close();',
        ].join('\n'),
      ],
      { cwd: join(prefix, 'lib'), env },
    );
    expect(served.stdout.trim()).toBe('200 true');

    // A TypeScript program that installed einvoice type-checks against its declarations.
    const consumer = largeFolder('consumer');
    mkdirSync(join(consumer, 'node_modules'));
    symlinkSync(join(prefix, 'lib', 'node_modules', 'einvoice'), join(consumer, 'node_modules', 'einvoice'));
    writeFileSync(
      join(consumer, 'main.mts'),
      [
        "import { createClient, startSandbox, singleInvoiceSchema, type Statistics } from 'einvoice';",
        'const sandbox = await startSandbox();',
        'const statistics: Statistics = await createClient({ baseUrl: sandbox.url, token: sandbox.token }).getStatistics();',
        'console.log(statistics.paidInvoices.totalCount, singleInvoiceSchema.shape.amount);',
        'await sandbox.close();',
      ].join('\n'),
    );
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    const typeRoots = join(repo, 'node_modules', '@types');
    await expect(
      run(process.execPath, [
        tsc,
        // --ignoreConfig: the consumer's own options, not this repository's tsconfig.json (TypeScript 6 asks).
        ...['--ignoreConfig', '--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--types', 'node'],
        ...['--typeRoots', typeRoots, join(consumer, 'main.mts')],
      ]),
    ).resolves.toMatchObject({ stderr: '' });
  }, 300_000);
});
