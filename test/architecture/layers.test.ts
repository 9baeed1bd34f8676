import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The layer rules of .dependency-cruiser.cjs, run as `npm run lint` runs them: on a copy of src/ with wrong imports
// added, which must fail naming the rule each breaks, and nothing else of src/.

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

/** One wrong import per rule, each in a file of its own: the file, and what it imports. */
const wrongImports = [
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
    rule: 'bulk-uses-input-and-schemas',
    path: 'src/bulk/wrong-ledger.ts',
    content: "import { LedgerRecorder } from '../ledger/recorder.js';\nexport const wrong = LedgerRecorder;\n",
  },
  {
    rule: 'bulk-names-no-type-of-output-or-ledger',
    path: 'src/bulk/wrong-type.ts',
    content: "import type { LedgerEntry } from '../ledger/entries.js';\nexport type Wrong = LedgerEntry;\n",
  },
  {
    rule: 'peers-stay-apart',
    path: 'src/ledger/wrong.ts',
    content: "import { toJson } from '../output/format.js';\nexport const wrong = toJson;\n",
  },
  {
    rule: 'commands-are-the-top',
    path: 'src/api/wrong.ts',
    content: "import { completionShells } from '../commands/completion.js';\nexport const wrong = completionShells;\n",
  },
  {
    rule: 'sandbox-through-its-index',
    path: 'src/commands/wrong.ts',
    content: "import { formatAmount } from '../sandbox/notifications.js';\nexport const wrong = formatAmount;\n",
  },
  {
    rule: 'bulk-through-its-index',
    path: 'src/commands/bulk-wrong.ts',
    content: "import { planBatch } from '../bulk/plan.js';\nexport const wrong = planBatch;\n",
  },
  {
    rule: 'bulk-through-its-index',
    path: 'src/output/bulk-wrong.ts',
    content: "import type { Plan } from '../bulk/plan.js';\nexport type Wrong = Plan;\n",
  },
  {
    rule: 'sheet-uses-input-and-schemas',
    path: 'src/sheet/wrong.ts',
    content: "import { toJson } from '../output/format.js';\nexport const wrong = toJson;\n",
  },
  {
    rule: 'sheet-uses-input-and-schemas',
    path: 'src/sheet/wrong-bulk.ts',
    content: "import type { BulkKind } from '../bulk/index.js';\nexport type Wrong = BulkKind;\n",
  },
  {
    rule: 'sheet-through-its-index',
    path: 'src/commands/sheet-wrong.ts',
    content: "import { readCell } from '../sheet/csv-cells.js';\nexport const wrong = readCell;\n",
  },
  {
    rule: 'sheet-through-its-index',
    path: 'src/bulk/sheet-wrong.ts',
    content: "import type { SourceRecord } from '../sheet/records.js';\nexport type Wrong = SourceRecord;\n",
  },
  {
    rule: 'peers-stay-apart',
    path: 'src/output/sheet-wrong.ts',
    content: "import { readInvoiceFile } from '../sheet/index.js';\nexport const wrong = readInvoiceFile;\n",
  },
  {
    rule: 'sandbox-stands-alone',
    path: 'src/sandbox/wrong.ts',
    content: "import { toJson } from '../output/format.js';\nexport const wrong = toJson;\n",
  },
  {
    rule: 'no-circular',
    path: 'src/schemas/money-cycle.ts',
    content: "import { maxAmount } from './money.js';\nexport const wrong = maxAmount;\n",
  },
];
/** A type shared between peers, which the rules allow. */
const sharedType = {
  path: 'src/output/shared-type.ts',
  content: "import type { ServiceClient } from '../api/client.js';\nexport type Shared = ServiceClient;\n",
};

// The check reads the whole of src/ on each run, so it runs once: on a copy of src/ with every wrong import and the
// shared type added. Each rule must be named against its own file, and nothing else in src/ may be named.
let folder = '';
let result = { code: 0, output: '' };

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'einvoice-layers-'));
  cpSync(join(root, 'src'), join(folder, 'src'), { recursive: true });
  for (const name of ['.dependency-cruiser.cjs', 'tsconfig.json', 'package.json']) {
    cpSync(join(root, name), join(folder, name));
  }
  for (const { path, content } of [...wrongImports, sharedType]) writeFileSync(join(folder, path), content);
  writeFileSync(join(folder, 'src/schemas/money.ts'), "\nexport { wrong } from './money-cycle.js';\n", { flag: 'a' });
  result = await checkLayers(folder);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The lines of the check's output that report a broken rule. */
const errorLines = () => result.output.split('\n').filter((line) => /^\s*error /.test(line));

describe('the layers of src/', () => {
  it.each(wrongImports)('fail on a wrong import ($rule: $path)', ({ rule, path }) => {
    expect(result.code).not.toBe(0);
    const named = errorLines().filter((line) => line.includes(`error ${rule}:`));
    expect(named.length, result.output).toBeGreaterThan(0);
    expect(named.join('\n')).toContain(path.replace(/^src\//, ''));
  });

  it('hold everywhere else, with no import cycle (every broken rule names an added file)', () => {
    const added = wrongImports.map(({ path }) => path.replace(/^src\//, ''));
    expect(errorLines().length, result.output).toBeGreaterThanOrEqual(wrongImports.length);
    for (const line of errorLines()) {
      expect(
        added.some((path) => line.includes(path)),
        line,
      ).toBe(true);
    }
  });

  it('allow a type shared between peers', () => {
    expect(result.output).not.toContain('shared-type');
  });
});
