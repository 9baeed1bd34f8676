import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

// The layer rules of .dependency-cruiser.cjs, run as `npm run lint` runs them: on src/ itself, which must hold them,
// and on a copy of src/ with one wrong import added, which must fail naming the rule it breaks.

const root = process.cwd();
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');

/** Runs the layer check in `folder`; resolves with its exit code and output. */
async function checkLayers(folder: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(depcruise, ['src', '--config', '.dependency-cruiser.cjs'], {
      cwd: folder,
    });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

const copies: string[] = [];
afterEach(() => {
  for (const folder of copies.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A copy of src/ and the check's configuration, with `files` (path -> content) added. */
function copyWith(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'einvoice-layers-'));
  copies.push(folder);
  cpSync(join(root, 'src'), join(folder, 'src'), { recursive: true });
  for (const name of ['.dependency-cruiser.cjs', 'tsconfig.json', 'package.json']) {
    cpSync(join(root, name), join(folder, name));
  }
  for (const [path, content] of Object.entries(files)) writeFileSync(join(folder, path), content);
  return folder;
}

describe('the layers of src/', () => {
  it('hold, with no import cycle', async () => {
    const { code, output } = await checkLayers(root);
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  it.each([
    {
      rule: 'schemas-use-only-base',
      path: 'src/schemas/wrong.ts',
      content:
        "import { UsageError } from '../errors.js';\nimport { toJson } from '../output/format.js';\nexport const wrong = [UsageError, toJson];\n",
    },
    {
      rule: 'peers-stay-apart',
      path: 'src/input/wrong.ts',
      content: "import { toJson } from '../output/format.js';\nexport const wrong = toJson;\n",
    },
    {
      rule: 'bulk-uses-input-and-schemas',
      path: 'src/bulk/wrong.ts',
      content: "import { renderSummary } from '../output/bulk-summary.js';\nexport const wrong = renderSummary;\n",
    },
    {
      rule: 'commands-are-the-top',
      path: 'src/api/wrong.ts',
      content:
        "import { completionShells } from '../commands/completion.js';\nexport const wrong = completionShells;\n",
    },
    {
      rule: 'sandbox-through-its-index',
      path: 'src/commands/wrong.ts',
      content: "import { formatAmount } from '../sandbox/notifications.js';\nexport const wrong = formatAmount;\n",
    },
    {
      rule: 'sandbox-stands-alone',
      path: 'src/sandbox/wrong.ts',
      content: "import { toJson } from '../output/format.js';\nexport const wrong = toJson;\n",
    },
    {
      rule: 'got-through-its-loader',
      path: 'src/api/wrong.ts',
      content: "import got from 'got';\nexport const wrong = got;\n",
    },
    {
      rule: 'no-circular',
      path: 'src/schemas/money-cycle.ts',
      content: "import { maxAmount } from './money.js';\nexport const wrong = maxAmount;\n",
      append: { path: 'src/schemas/money.ts', content: "\nexport { wrong } from './money-cycle.js';\n" },
    },
  ])('fail on a wrong import ($rule)', async ({ rule, path, content, append }) => {
    const folder = copyWith({ [path]: content });
    if (append) writeFileSync(join(folder, append.path), append.content, { flag: 'a' });
    const { code, output } = await checkLayers(folder);
    expect(code).not.toBe(0);
    expect(output).toContain(`error ${rule}:`);
    expect(output).toContain(path.replace(/^src\//, ''));
  });

  it('allow a type shared between peers', async () => {
    const folder = copyWith({
      'src/output/shared-type.ts':
        "import type { ServiceClient } from '../api/client.js';\nexport type Shared = ServiceClient;\n",
    });
    const { code, output } = await checkLayers(folder);
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });
});
