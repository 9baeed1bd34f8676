import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// src/commands/ holds one folder per command, the root's options, and one folder of what several commands share
// (shared/): code that several commands use is never loose among the command folders.

const commands = join(process.cwd(), 'src', 'commands');

describe('src/commands/', () => {
  it('holds folders and the root command only', () => {
    const loose = readdirSync(commands, { withFileTypes: true })
      .filter((entry) => !entry.isDirectory())
      .map((entry) => entry.name);
    expect(loose).toEqual(['root.ts']);
  });
});
