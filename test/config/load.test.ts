import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';

// The search for the profile file: synchronous for every place, asynchronous only to import a JavaScript file.

/** A project folder with a nested working folder, both new. */
function project(): { root: string; nested: string } {
  const root = mkdtempSync(join(tmpdir(), 'einvoice-load-'));
  const nested = join(root, 'packages', 'shop');
  mkdirSync(nested, { recursive: true });
  return { root, nested };
}

const profile = (name: string) => ({ defaultEnv: name, environments: { [name]: { baseUrl: 'https://example.com' } } });

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
});
