import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  devDependencies: Record<string, string>;
};

describe('the runtime of the tests', () => {
  // `npm test` runs on the Node the project pins (the registry's `node` package), not on the machine's own.
  it('is the Node.js major that package.json pins for development', () => {
    const pinnedMajor = /(\d+)\./.exec(manifest.devDependencies.node ?? '')?.[1];
    expect(pinnedMajor).toBeDefined();
    expect(process.versions.node.split('.')[0]).toBe(pinnedMajor);
  });
});
