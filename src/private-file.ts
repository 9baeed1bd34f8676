import { mkdir, open, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

// Files that hold customers' data (reports, saved requests, drafts, journals) are the merchant's alone: mode 0600.
// A mode given to open() applies only to a file it creates, so a file that was there already (`touch report.csv`)
// would keep wider permissions while it fills with customers' data.

/**
 * Opens `path` with `flags`, then makes a regular file the user's alone (0600) if it was readable by others. A
 * stream named under /dev (`--report /dev/stdout`, whatever the shell redirected it to) is the user's to set.
 */
export async function openPrivate(path: string, flags: 'w' | 'a+'): Promise<FileHandle> {
  const handle = await open(path, flags, 0o600);
  try {
    const info = await handle.stat();
    if (info.isFile() && (info.mode & 0o077) !== 0 && !/^\/(dev|proc)\//.test(path)) {
      await handle.chmod(0o600).catch((error: NodeJS.ErrnoException) => {
        throw new Error(
          `${path} is readable by others and cannot be made private (0600): ${error.code ?? error.message}; ` +
            'choose a file of your own',
        );
      });
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Writes `text` to `path`, the user's alone (0600), created or replaced. */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const handle = await openPrivate(path, 'w');
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/**
 * Throws the error writing `path` would meet (its folder missing, a folder by that name, no permission), before
 * anything is done that the file is to report on. Changes nothing: a file that was not there is not left behind,
 * and one that was keeps its content.
 */
export async function checkWritable(path: string): Promise<void> {
  const existed = await stat(path).then(
    () => true,
    () => false,
  );
  const handle = await open(path, 'a', 0o600);
  await handle.close();
  if (!existed) await unlink(path).catch(() => undefined);
}

/**
 * Makes `folder`, and the folders above it that are missing, the user's alone (0700). One level at a time, each tried
 * once more after its parent is made: Node's recursive mkdir never returns for a folder under /proc, whose parent
 * exists and answers every attempt with ENOENT.
 */
export async function makePrivateFolder(folder: string): Promise<void> {
  const made = await mkdir(folder, { mode: 0o700 }).then(
    () => true,
    async (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST' && (await isFolder(folder))) return true;
      if (error.code === 'ENOENT' && dirname(folder) !== folder) return false;
      throw error;
    },
  );
  if (made) return;
  await makePrivateFolder(dirname(folder));
  // The parent is there now: an ENOENT this time is the folder's own answer.
  await mkdir(folder, { mode: 0o700 }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST' || !(await isFolder(folder))) throw error;
  });
}

function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}
