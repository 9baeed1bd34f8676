import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// This repository as a merchant gets it (a clone, a download of the Action): its files as they are in the working
// tree, changes not yet committed included, and none of what git ignores (no node_modules/, no dist/).

/** The repository's own folder. */
export const repositoryFolder = fileURLToPath(new URL('../..', import.meta.url));

/** A new folder holding the repository's files, without what git ignores. */
export function copyOfRepository(label: string): string {
  const folder = mkdtempSync(join(tmpdir(), `einvoice-${label}-`));
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repositoryFolder,
    encoding: 'utf8',
  });
  // A file deleted in the working tree but not yet in the index is listed and absent.
  for (const path of listed.split('\0').filter((path) => path && existsSync(join(repositoryFolder, path))))
    cpSync(join(repositoryFolder, path), join(folder, path));
  return folder;
}

/** A git repository of one commit holding the repository's files, as `git+file://` installs from. */
export function gitRepositoryOfRepository(label: string): string {
  const folder = copyOfRepository(label);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=einvoice', '-c', 'user.email=einvoice@example.com', ...args], {
      cwd: folder,
      stdio: 'ignore',
    });
  git('init', '--quiet', '--initial-branch=main');
  git('add', '--all');
  git('commit', '--quiet', '--message', 'The working tree');
  return folder;
}
