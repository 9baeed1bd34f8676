import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actionWorkflow,
  csvOf,
  outcomes,
  receivedWithNote,
  sheetYear as year,
  stepNamed,
} from '../helpers/action-workflow.js';
import { serveSandbox, type ServedSandbox } from '../bulk/helpers.js';

// The Action with no release anywhere, its build as a runner makes it: `npm ci` of the Action's own files from the
// lockfile (packages from npm's cache where it holds them) and the build `prepare` runs, then the real CLI creates
// a CSV file's invoices in a sandbox; a later run takes einvoice from the Actions cache. On the runner's Node.js (this
// run's), and on a runner whose node is older than 22, where einvoice runs on the Node.js 24 the lockfile installs.
// test/action-run.test.ts runs the same steps in `npm test`, with this repository's install standing for `npm ci`.

let sandbox: ServedSandbox;
beforeAll(async () => {
  sandbox = await serveSandbox();
});
afterAll(async () => {
  await sandbox.stop();
});

/** A Node.js 20 from the npm registry (the `node` package), as `npm run test:node22` gets Node.js 22. */
function olderNodeFolder(): string {
  const path = execFileSync('npx', ['--yes', '--package', 'node@20', '--', 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
  });
  return dirname(path.trim());
}

describe('the Action with no release, built from its own files by npm', () => {
  it.each([
    ['the runner’s Node.js', () => dirname(process.execPath), /Node\.js v(22|24)\./],
    ['a runner whose node is 20', olderNodeFolder, /Node\.js v24\./],
  ])('on %s: creates a CSV file’s invoices, then a later run takes einvoice from the cache', async (_, node, runs) => {
    const workflow = actionWorkflow({ sandbox, nodeFolder: node(), npm: 'real' });
    const note = `Built ${runs.source}`;
    const first = workflow.run({ file: 'invoices.csv', environment: 'staging' }, { 'invoices.csv': csvOf([note]) });
    expect(outcomes(first.steps), JSON.stringify(first.steps, null, 1)).toMatchObject({
      'Install einvoice': 'success',
      'Save the einvoice build': 'success',
      'Create the invoices': 'success',
    });
    expect(stepNamed(first.steps, 'Install einvoice').stdout).toMatch(runs);
    expect(workflow.downloads()).toEqual([]);
    expect(await receivedWithNote(sandbox, note)).toMatchObject([{ releaseDate: `${year}-12-02T22:00:00.000Z` }]);

    const later = workflow.run({ file: 'invoices.csv', environment: 'staging' }, { 'invoices.csv': csvOf([note]) });
    const install = stepNamed(later.steps, 'Install einvoice');
    expect(install.stdout).toMatch(/, from the cache; /);
    expect(install.stdout).not.toContain('npm ci');
    expect(install.stdout).toMatch(runs);
    expect(stepNamed(later.steps, 'Create the invoices').outcome).toBe('success');
    expect(await receivedWithNote(sandbox, note)).toHaveLength(1);
  });
});
