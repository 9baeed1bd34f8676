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

/**
 * What is wrong with the code fences of a Markdown text (CommonMark's rules): a block left open at the end, and a
 * block opened without naming its language. The second is how a stray fence shows even when the fences pair up: a
 * stray one turns prose into code up to the next fence, and it names no language, as a closing fence does not.
 */
function fenceProblems(text: string): string[] {
  const problems: string[] = [];
  let open: { fence: string; line: number } | undefined;
  text.split('\n').forEach((line, index) => {
    const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!match) return;
    const [, fence = '', info = ''] = match;
    if (!open) {
      open = { fence, line: index + 1 };
      if (info.trim() === '') problems.push(`line ${index + 1} opens a code block without naming its language`);
    } else if (fence[0] === open.fence[0] && fence.length >= open.fence.length && info.trim() === '') {
      open = undefined;
    }
  });
  if (open) problems.push(`line ${open.line} opens a code block that is never closed`);
  return problems;
}

describe('Markdown code fences', () => {
  it('finds a fence never closed, and a stray pair that turns prose into code', () => {
    expect(fenceProblems('# A\n\n```sh\nls\n```\n\nText.\n')).toEqual([]);
    expect(fenceProblems('```sh\nls\n```\n\n```sh\nprose\n')).toEqual([
      'line 5 opens a code block that is never closed',
    ]);
    // As docs/bulk.md had it: a fence after a block's end, and another further down that closed what it opened.
    expect(fenceProblems('```sh\nls\n```\n\n```\n\n## A heading\n```\n')).toEqual([
      'line 5 opens a code block without naming its language',
    ]);
    expect(fenceProblems('````md\n```\ninner\n```\n````\n~~~text\nout\n~~~\n')).toEqual([]);
  });

  it.each(['README.md', ...pages])('%s opens and closes every code block where it means to', (file) => {
    expect(fenceProblems(read(file))).toEqual([]);
  });
});

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
