import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exitCodeTable } from '../src/errors.js';

// The README stays short and links to docs/, whose pages stand on their own inside this repository.

const repo = fileURLToPath(new URL('../', import.meta.url));
const read = (path: string) => readFileSync(join(repo, path), 'utf8');
const pages = readdirSync(join(repo, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);

/** The targets of the Markdown links of `text` that are not web addresses, without their #fragment. */
function localLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target ?? '')
    .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'))
    .map((target) => target.replace(/#.*$/, ''));
}

describe('README.md', () => {
  it('is at most 200 lines and links to every page of docs/', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    expect(pages.length).toBeGreaterThanOrEqual(5);
    const linked = new Set(localLinks(readme));
    for (const page of pages) expect(linked, page).toContain(page);
  });
});

describe('docs/', () => {
  it('has the pages the README promises', () => {
    for (const name of ['bulk', 'csv', 'configuration', 'sandbox', 'client', 'ci', 'schema', 'performance'])
      expect(pages).toContain(`docs/${name}.md`);
    expect(pages).toContain('docs/troubleshooting.md');
  });

  it('links only to files of this repository that exist', () => {
    for (const file of ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', ...pages]) {
      for (const target of localLinks(read(file))) {
        const path = resolve(repo, dirname(file), target);
        expect(relative(repo, path).startsWith('..'), `${file} links outside the repository: ${target}`).toBe(false);
        expect(existsSync(path), `${file} links to ${target}, which does not exist`).toBe(true);
      }
    }
  });

  it('exit-codes.md holds the table of src/errors.ts, row for row', () => {
    const rows = read('docs/exit-codes.md')
      .split('\n')
      .filter((line) => /^\| \d+ /.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    expect(rows).toEqual(exitCodeTable.map(({ code, meaning, more }) => [String(code), meaning, more ?? '']));
  });
});
