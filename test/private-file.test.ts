import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkWritable } from '../src/private-file.js';
import { tempDir } from './bulk/helpers.js';

describe('checking that a file can be written', () => {
  it('changes nothing: a file that was not there is not left behind, one that was keeps its content and mode', async () => {
    const folder = tempDir();
    await checkWritable(join(folder, 'new.csv'));
    expect(existsSync(join(folder, 'new.csv'))).toBe(false);

    writeFileSync(join(folder, 'kept.csv'), 'from before\n', { mode: 0o644 });
    await checkWritable(join(folder, 'kept.csv'));
    expect(readFileSync(join(folder, 'kept.csv'), 'utf8')).toBe('from before\n');
    expect(statSync(join(folder, 'kept.csv')).mode & 0o777).toBe(0o644);
  });

  it('throws what writing would meet: a missing folder, a folder by that name', async () => {
    const folder = tempDir();
    mkdirSync(join(folder, 'sub'));
    await expect(checkWritable(join(folder, 'missing', 'r.csv'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(checkWritable(join(folder, 'sub'))).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
