import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { UsageError } from '../../src/errors.js';

// The search for the profile file: synchronous for every place, asynchronous only to import a JavaScript file.

/** A project folder with a nested working folder, both new. */
function project(): { root: string; nested: string } {
  const root = mkdtempSync(join(tmpdir(), 'einvoice-load-'));
  const nested = join(root, 'packages', 'shop');
  mkdirSync(nested, { recursive: true });
  return { root, nested };
}

const profile = (name: string) => ({ defaultEnv: name, environments: { [name]: { baseUrl: 'https://example.com' } } });

// The search ends in cosmiconfig's global folder, $XDG_CONFIG_HOME/einvoice: a new empty one for each test, so the
// machine's own never answers.
let globalFolder: string;
const savedConfigHome = process.env.XDG_CONFIG_HOME;
beforeEach(() => {
  const configHome = mkdtempSync(join(tmpdir(), 'einvoice-config-home-'));
  process.env.XDG_CONFIG_HOME = configHome;
  globalFolder = join(configHome, 'einvoice');
  mkdirSync(globalFolder);
});
afterEach(() => {
  if (savedConfigHome === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedConfigHome;
});

describe('loadConfig', () => {
  it('finds the file in a folder above the working folder, the nearest first', async () => {
    const { root, nested } = project();
    writeFileSync(join(root, '.einvoicerc.json'), JSON.stringify(profile('far')));
    expect(await loadConfig(nested)).toMatchObject({ filepath: join(root, '.einvoicerc.json') });
    writeFileSync(join(root, 'packages', '.einvoicerc'), 'defaultEnv: near\nenvironments:\n  near: {}\n');
    expect(await loadConfig(nested)).toMatchObject({
      config: { defaultEnv: 'near' },
      filepath: join(root, 'packages', '.einvoicerc'),
    });
  });

  it('reads the einvoice key of a package.json', async () => {
    const { nested } = project();
    writeFileSync(join(nested, 'package.json'), JSON.stringify({ name: 'shop', einvoice: profile('pkg') }));
    expect(await loadConfig(nested)).toMatchObject({ config: { defaultEnv: 'pkg' } });
  });

  it.each([
    ['einvoice.config.mjs', 'export default', undefined],
    ['einvoice.config.cjs', 'module.exports =', undefined],
    ['einvoice.config.js', 'export default', { type: 'module' }],
    ['einvoice.config.js', 'module.exports =', { type: 'commonjs' }],
  ])('imports a JavaScript profile found above: %s (%s)', async (name, exported, packageJson) => {
    const { root, nested } = project();
    if (packageJson) writeFileSync(join(root, 'package.json'), JSON.stringify(packageJson));
    writeFileSync(join(root, name), `${exported} ${JSON.stringify(profile('js'))};\n`);
    expect(await loadConfig(nested)).toMatchObject({ config: { defaultEnv: 'js' }, filepath: join(root, name) });
  });

  it('finds nothing when no folder up the tree has a file', async () => {
    const { nested } = project();
    expect(await loadConfig(nested)).toEqual({ config: {}, readableByOthers: false });
  });

  it.each([
    ['config.json', JSON.stringify(profile('global'))],
    ['config', 'defaultEnv: global\nenvironments:\n  global: {}\n'],
    ['config.mjs', `export default ${JSON.stringify(profile('global'))};\n`],
  ])("reads the global folder's %s last", async (name, text) => {
    const { nested } = project();
    writeFileSync(join(globalFolder, name), text);
    expect(await loadConfig(nested)).toMatchObject({
      config: { defaultEnv: 'global' },
      filepath: join(globalFolder, name),
    });
  });

  it('goes on past a JavaScript profile that exports nothing, as cosmiconfig does', async () => {
    const { root, nested } = project();
    writeFileSync(join(root, '.einvoicerc.json'), JSON.stringify(profile('parent')));
    writeFileSync(join(nested, 'einvoice.config.mjs'), 'export const unused = 1;\n');
    expect(await loadConfig(nested)).toMatchObject({ config: { defaultEnv: 'parent' } });
  });

  it('merges what $import names, a JavaScript file among them', async () => {
    const { nested } = project();
    writeFileSync(join(nested, 'base.mjs'), `export default ${JSON.stringify({ environments: { base: {} } })};\n`);
    writeFileSync(join(nested, '.einvoicerc'), 'defaultEnv: base\n$import: ./base.mjs\n');
    expect(await loadConfig(nested)).toMatchObject({ config: { defaultEnv: 'base', environments: { base: {} } } });
  });

  it('refuses a profile file in TypeScript, naming it', async () => {
    const { nested } = project();
    writeFileSync(join(nested, 'profile.ts'), 'export default {};\n');
    const error = await loadConfig(nested, 'profile.ts').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(
      'Cannot read the profile file profile.ts: profile.ts is TypeScript, which einvoice does not read: write it as JSON, YAML or JavaScript',
    );
  });
});
