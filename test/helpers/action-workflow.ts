import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { delimiter, join } from 'node:path';
import { ActionsCache, runAction, stepSummary, writeStubs, type StepResult } from './action-runner.js';
import { copyOfRepository, repositoryFolder } from './repository-copy.js';
import type { SandboxInvoice } from './sandbox.js';
import { largeFolder, removedAfterAll } from './large-folders.js';
import { expectNoSecrets } from './secrets.js';
import { tempDir } from '../bulk/helpers.js';
import type { ServedSandbox } from '../bulk/helpers.js';

// Workflow runs of the Action from a branch (`uses: merchant/einvoice@main`) with no release anywhere: the Action's
// repository lists none (a stub gh) and nothing is downloaded (a stub curl that fails and records), so einvoice is
// built from the Action's own files, then the real CLI sends to a sandbox. The build's `npm ci` is either the real
// one, or this repository's own install (a stub npm: its node_modules/, and the dist/ the tests' setup built from
// these very sources), which takes no time.

export interface ActionWorkflowOptions {
  sandbox: ServedSandbox;
  /** The runner's node: the folder put on PATH after the runner's tools. */
  nodeFolder: string;
  /** `repository`: `npm ci` stands for this repository's own install; `real`: npm itself, from the lockfile. */
  npm: 'repository' | 'real';
}

/** The runs of one Action ref on fresh runners, sharing the ref's download and the repository's Actions cache. */
export function actionWorkflow(options: ActionWorkflowOptions) {
  const { sandbox } = options;
  // Large with a real `npm ci` (its node_modules/, and a Node.js binary in the cache): removed after the tests.
  const actionPath = removedAfterAll(copyOfRepository('action'));
  const cache = new ActionsCache(largeFolder('actions-cache'));
  const npmCalls = join(tempDir(), 'npm-calls');
  const downloads = join(tempDir(), 'downloads');
  const stubs: Record<string, string> = {
    gh: '[ "$1 $2" = "release list" ] || { echo "gh $* is not stubbed" >&2; exit 1; }',
    curl: `printf '%s\\n' "$*" >> '${downloads}'; echo 'curl: (22) The requested URL returned error: 404' >&2; exit 22`,
  };
  if (options.npm === 'repository')
    stubs.npm = [
      `[ "$1" = ci ] || { echo "npm $* is not stubbed" >&2; exit 1; }`,
      `printf '%s\\n' "$PWD" >> '${npmCalls}'`,
      `ln -sfn '${join(repositoryFolder, 'node_modules')}' node_modules`,
      `rm -rf dist && cp -R '${join(repositoryFolder, 'dist')}' dist`,
    ].join('\n');

  /** One workflow run on a new runner whose workspace holds `files`; no step may print a token. */
  function run(inputs: Record<string, string>, files: Record<string, string | Uint8Array>) {
    const root = largeFolder('runner');
    const workspace = join(root, 'workspace');
    const temp = join(root, 'runner-temp');
    const tools = join(root, 'runner-tools');
    for (const folder of [workspace, temp, join(root, 'home')]) mkdirSync(folder);
    for (const [name, content] of Object.entries(files)) writeFileSync(join(workspace, name), content);
    writeStubs(tools, stubs);
    const steps = runAction({
      inputs,
      github: {
        workspace,
        action_path: actionPath,
        action_ref: 'main',
        action_repository: 'merchant/einvoice',
        token: 'gh-token-of-the-run',
        job: 'invoices',
        run_attempt: '1',
      },
      runner: { os: 'Linux', arch: 'X64', temp },
      env: {
        ...networkSettings(),
        PATH: [tools, options.nodeFolder, process.env.PATH ?? ''].join(delimiter),
        HOME: join(root, 'home'),
        // npm's cache, where this repository's install put the lockfile's packages.
        npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? '', '.npm'),
        // A runner's clock, whatever this machine's zone.
        TZ: 'UTC',
        EINVOICE_TOKEN: sandbox.token,
        EINVOICE_BASE_URL: sandbox.url,
      },
      cache,
    });
    for (const step of steps)
      expectNoSecrets([`(the Action's step ${step.name})`], step, { EINVOICE_TOKEN: sandbox.token });
    return { steps, summary: stepSummary(temp), workspace };
  }

  return {
    run,
    actionPath,
    /** The folders `npm ci` ran in (the stub npm only). */
    npmCalls: () => (existsSync(npmCalls) ? readFileSync(npmCalls, 'utf8').trim().split('\n') : []),
    /** What curl was asked to download. */
    downloads: () => (existsSync(downloads) ? readFileSync(downloads, 'utf8').trim().split('\n') : []),
  };
}

/** This machine's way to the network (its proxy and certificates), which a runner has of its own. */
function networkSettings(): Record<string, string> {
  const names = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'];
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => names.includes(entry[0].toUpperCase()) && entry[1] !== undefined,
    ),
  );
}

/** The outcome of each step, by name. */
export function outcomes(steps: StepResult[]): Record<string, string> {
  return Object.fromEntries(steps.map((step) => [step.name, step.outcome]));
}

/** The step of this name. */
export function stepNamed(steps: StepResult[], name: string): StepResult {
  const found = steps.find((step) => step.name === name);
  if (!found) throw new Error(`the run has no step named "${name}"`);
  return found;
}

const year = new Date().getUTCFullYear() + 1;

/** Next year: the year of the bare days the sheets below name. */
export const sheetYear = year;

const header =
  'customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,businessReference,note,' +
  'communicationMethod,paymentType,items[0].itemCode,items[0].purchasedQuantity,items[0].price,items[0].nameEn,' +
  'items[0].nameAr';

/** A CSV file of invoices, one per note, sent and released on `day` (a bare day), expiring at the end of the year. */
export function csvOf(notes: string[], day = `${year}-12-03`): string {
  const rows = notes.map(
    (note, index) =>
      `Customer ${index + 1},+2010012345${String(index).padStart(2, '0')},301.00,${day},${day},${year}-12-31,` +
      `${note.replaceAll(' ', '-')},${note},SMS,PUSH_TO_CUSTOMER,SKU${index + 1},2,150.50,Shirt,قميص`,
  );
  return [header, ...rows, ''].join('\n');
}

/**
 * The requests of the invoices the sandbox received whose note begins with `prefix`. A connection of its own: a run
 * of the Action takes longer than the sandbox keeps an idle connection open.
 */
export async function receivedWithNote(sandbox: ServedSandbox, prefix: string) {
  const body = await new Promise<string>((resolve, reject) => {
    get(`${sandbox.url}/__sandbox/invoices`, { agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => (response.statusCode === 200 ? resolve(text) : reject(new Error(text))));
    }).on('error', reject);
  });
  return (JSON.parse(body) as { invoices: SandboxInvoice[] }).invoices
    .map((invoice) => invoice.request as Record<string, unknown>)
    .filter((request) => String(request.note).startsWith(prefix));
}
