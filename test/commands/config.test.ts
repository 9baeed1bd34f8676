import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, unusedPort, type TestServer } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';
import { newToken } from '../helpers/secrets.js';

let sandbox: TestSandbox;
const servers: TestServer[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  await sandbox.api.createInvoice({ amount: 321 });
});
afterAll(() => sandbox.close());
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A temp HOME with `config` written as its profile file; returns the home and the file's path. */
function homeWith(config: object | string, options: { mode?: number; name?: string } = {}) {
  const home = tempHome();
  return { home, filepath: writeProfile(home, config, options) };
}

function run(home: string, args: string[], env: Record<string, string> = {}) {
  return runInProcess(args, { env: { HOME: home, ...env } });
}

/** Runs `stats --json` and checks it reached the sandbox: the statistics it printed are the sandbox's. */
async function expectStatsFromSandbox(home: string, env: Record<string, string> = {}, args: string[] = []) {
  const result = await run(home, [...args, 'stats', '--json'], env);
  expect(result.stderr).toBe('');
  expect(result.code, result.stderr).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual(await sandbox.api.statistics());
}

function showLine(stdout: string, label: string): string {
  return stdout.split('\n').find((line) => line.startsWith(label)) ?? `(no ${label} line in:\n${stdout})`;
}

describe('token sources', () => {
  it('uses a token written in the file, shows only where it is, and is quiet about a 0600 file', async () => {
    const { home, filepath } = homeWith(localProfile(sandbox.url, sandbox.token), { mode: 0o600 });
    const show = await run(home, ['config', 'show']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stderr).toBe('');
    expect(showLine(show.stdout, 'Token')).toMatch(new RegExp(`^Token\\s+token in ${filepath}$`));
    expect(showLine(show.stdout, 'Environment')).toMatch(/^Environment\s+local \(from defaultEnv\)$/);
    expect(showLine(show.stdout, 'Base URL')).toMatch(new RegExp(`^Base URL\\s+${sandbox.url}$`));
    await expectStatsFromSandbox(home);
  });

  it('warns on stderr when the file holding a token can be read by others', async () => {
    const { home, filepath } = homeWith(localProfile(sandbox.url, sandbox.token), { mode: 0o644 });
    const show = await run(home, ['config', 'show']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stderr).toContain(`${filepath} holds a token and can be read by other users: run chmod 600 on it.`);
    const stats = await run(home, ['stats', '--json']);
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stderr).toContain('chmod 600');
  });

  it('warns about a readable file holding the token of another environment too', async () => {
    const profile = {
      defaultEnv: 'local',
      environments: {
        local: { baseUrl: sandbox.url, tokenEnv: 'LOCAL_EINVOICE_TOKEN' },
        other: { baseUrl: sandbox.url, token: newToken('other') },
      },
    };
    const { home, filepath } = homeWith(profile, { mode: 0o644 });
    const show = await run(home, ['config', 'show']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stderr).toContain(`${filepath} holds a token and can be read by other users`);
  });

  it('uses tokenEnv, and exits 3 naming the variable when it is unset', async () => {
    const profile = {
      defaultEnv: 'local',
      environments: { local: { baseUrl: sandbox.url, tokenEnv: 'LOCAL_EINVOICE_TOKEN' } },
    };
    const { home } = homeWith(profile, { mode: 0o644 });
    const show = await run(home, ['config', 'show'], { LOCAL_EINVOICE_TOKEN: sandbox.token });
    expect(show.stderr).toBe('');
    expect(showLine(show.stdout, 'Token')).toMatch(/^Token\s+env LOCAL_EINVOICE_TOKEN \(tokenEnv\)$/);
    // Unset, it says so before a command that sends finds out.
    const showUnset = await run(home, ['config', 'show']);
    expect(showLine(showUnset.stdout, 'Token')).toMatch(
      /^Token\s+env LOCAL_EINVOICE_TOKEN \(tokenEnv\), which is not set: commands that send will exit 3$/,
    );
    await expectStatsFromSandbox(home, { LOCAL_EINVOICE_TOKEN: sandbox.token });
    const unset = await run(home, ['stats']);
    expect(unset.code, unset.stderr).toBe(3);
    expect(unset.stderr).toContain(
      'No token for the local environment: the variable LOCAL_EINVOICE_TOKEN is empty or not set.',
    );
  });

  it('uses tokenCommand without ever printing the command or its output', async () => {
    const profile = {
      defaultEnv: 'local',
      environments: { local: { baseUrl: sandbox.url, tokenCommand: `printf %s ${sandbox.token}` } },
    };
    const { home } = homeWith(profile);
    const show = await run(home, ['config', 'show', '--json']);
    expect(JSON.parse(show.stdout)).toMatchObject({ environment: 'local', token: 'command (tokenCommand)' });
    await expectStatsFromSandbox(home);
  });

  it('lets EINVOICE_TOKEN override the token of the file', async () => {
    const { home } = homeWith(localProfile(sandbox.url, newToken('stale')));
    const stale = await run(home, ['stats']);
    expect(stale.code, stale.stderr).toBe(3);
    const show = await run(home, ['config', 'show'], { EINVOICE_TOKEN: sandbox.token });
    expect(showLine(show.stdout, 'Token')).toMatch(/^Token\s+env EINVOICE_TOKEN$/);
    await expectStatsFromSandbox(home, { EINVOICE_TOKEN: sandbox.token });
  });

  it('lets EINVOICE_BASE_URL override the base URL of the file', async () => {
    const { home } = homeWith(localProfile(`http://127.0.0.1:${await unusedPort()}`, sandbox.token));
    const show = await run(home, ['config', 'show'], { EINVOICE_BASE_URL: sandbox.url });
    expect(showLine(show.stdout, 'Base URL')).toMatch(
      new RegExp(`^Base URL\\s+${sandbox.url} \\(from EINVOICE_BASE_URL\\)$`),
    );
    await expectStatsFromSandbox(home, { EINVOICE_BASE_URL: sandbox.url });
  });

  it('needs no profile file in CI: EINVOICE_BASE_URL and EINVOICE_TOKEN make the environment', async () => {
    const home = tempHome();
    const ci = { EINVOICE_BASE_URL: sandbox.url, EINVOICE_TOKEN: sandbox.token };
    await expectStatsFromSandbox(home, ci, ['--env', 'staging']);
    const show = await run(home, ['--env', 'staging', 'config', 'show'], ci);
    expect(showLine(show.stdout, 'Token')).toMatch(/^Token\s+env EINVOICE_TOKEN$/);
    expect(show.stdout + show.stderr).not.toContain(sandbox.token);
    // Without the base URL the environment is still unknown.
    const unknown = await run(home, ['--env', 'staging', 'stats'], { EINVOICE_TOKEN: sandbox.token });
    expect(unknown.code, unknown.stderr).toBe(2);
    expect(unknown.stderr).toContain('set EINVOICE_BASE_URL and EINVOICE_TOKEN');
  });

  it('reads a YAML .einvoicerc', async () => {
    const yaml = `defaultEnv: local\nenvironments:\n  local:\n    baseUrl: ${sandbox.url}\n    token: ${sandbox.token}\n`;
    const { home, filepath } = homeWith(yaml, { name: '.einvoicerc' });
    const show = await run(home, ['config', 'show']);
    expect(showLine(show.stdout, 'Profile file')).toMatch(new RegExp(`^Profile file\\s+${filepath}$`));
    await expectStatsFromSandbox(home);
  });

  it.each(['einvoice.config.cjs', 'einvoice.config.mjs'])('reads a JavaScript profile, %s', async (name) => {
    const config = JSON.stringify(localProfile(sandbox.url, sandbox.token));
    const source = name.endsWith('.cjs') ? `module.exports = ${config};\n` : `export default ${config};\n`;
    const { home, filepath } = homeWith(source, { name, mode: 0o600 });
    const show = await run(home, ['config', 'show']);
    expect(show.code, show.stderr).toBe(0);
    expect(showLine(show.stdout, 'Profile file')).toMatch(new RegExp(`^Profile file\\s+${filepath}$`));
    await expectStatsFromSandbox(home);
  });

  it('reads an ES module profile in the global folder, $XDG_CONFIG_HOME/einvoice/config.mjs', async () => {
    const home = tempHome();
    const source = `export default ${JSON.stringify(localProfile(sandbox.url, sandbox.token))};\n`;
    const filepath = writeProfile(home, source, { name: join('.config', 'einvoice', 'config.mjs') });
    // The global folder is found from the process's environment (cosmiconfig reads it), as a spawned CLI's would be.
    vi.stubEnv('XDG_CONFIG_HOME', join(home, '.config'));
    const show = await run(home, ['config', 'show']);
    expect(showLine(show.stdout, 'Profile file')).toMatch(new RegExp(`^Profile file\\s+${filepath}$`));
    await expectStatsFromSandbox(home);
  });

  it('refuses a profile file in TypeScript with exit 2, naming it', async () => {
    const { home } = homeWith('export default {};\n', { name: 'profile.ts' });
    const result = await run(home, ['stats', '--config', 'profile.ts']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain(
      'Cannot read the profile file profile.ts: profile.ts is TypeScript, which einvoice does not read: write it as JSON, YAML or JavaScript',
    );
  });

  it('exits 3 for an environment without a token, sending nothing', async () => {
    const server = await startTestServer();
    servers.push(server);
    const { home, filepath } = homeWith({ defaultEnv: 'bare', environments: { bare: { baseUrl: server.url } } });
    const result = await run(home, ['stats']);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('No token for the bare environment: no token source is configured.');
    expect(result.stderr).toContain(`give environments.bare one of token, tokenEnv or tokenCommand in ${filepath}`);
    expect(server.requests).toHaveLength(0);
  });
});

describe('choosing the file and the environment', () => {
  it('reads the file named by --config or EINVOICE_CONFIG instead of searching', async () => {
    const home = tempHome();
    const filepath = writeProfile(home, localProfile(sandbox.url, sandbox.token), { name: 'profiles/einvoice.json' });
    const none = await run(home, ['config', 'show', '--json']);
    expect(JSON.parse(none.stdout)).toMatchObject({ environment: 'sandbox', configFile: null });

    const byFlag = await run(home, ['--config', 'profiles/einvoice.json', 'config', 'show', '--json']);
    expect(JSON.parse(byFlag.stdout)).toMatchObject({ environment: 'local', configFile: filepath });
    await expectStatsFromSandbox(home, {}, ['--config', 'profiles/einvoice.json']);

    const byVariable = await run(home, ['config', 'show', '--json'], { EINVOICE_CONFIG: filepath });
    expect(JSON.parse(byVariable.stdout)).toMatchObject({ environment: 'local', configFile: filepath });
    await expectStatsFromSandbox(home, { EINVOICE_CONFIG: filepath });
  });

  it('takes --env over EINVOICE_ENV over defaultEnv', async () => {
    const down = `http://127.0.0.1:${await unusedPort()}`;
    const { home } = homeWith({
      defaultEnv: 'local',
      environments: {
        local: { baseUrl: sandbox.url, token: sandbox.token },
        down: { baseUrl: down, token: sandbox.token },
      },
    });
    const show = async (args: string[], env: Record<string, string> = {}) =>
      JSON.parse((await run(home, [...args, 'config', 'show', '--json'], env)).stdout) as Record<string, unknown>;
    expect(await show([])).toMatchObject({ environment: 'local', selectedBy: 'defaultEnv', baseUrl: sandbox.url });
    expect(await show([], { EINVOICE_ENV: 'down' })).toMatchObject({ environment: 'down', selectedBy: 'EINVOICE_ENV' });
    expect(await show(['--env', 'local'], { EINVOICE_ENV: 'down' })).toMatchObject({
      environment: 'local',
      selectedBy: '--env',
    });

    expect((await run(home, ['stats'], { EINVOICE_ENV: 'down' })).code).toBe(5);
    await expectStatsFromSandbox(home, { EINVOICE_ENV: 'down' }, ['--env', 'local']);
  });

  it('exits 2 for an unknown environment, listing the known ones', async () => {
    const { home } = homeWith(localProfile(sandbox.url, sandbox.token));
    const result = await run(home, ['--env', 'stagign', 'stats']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('Unknown environment "stagign".');
    expect(result.stderr).toContain('sandbox, local');
  });
});

describe('invalid profile files', () => {
  it('refuses production as defaultEnv', async () => {
    const profile = {
      defaultEnv: 'production',
      environments: { production: { baseUrl: 'https://x.example.com', tokenEnv: 'T' } },
    };
    const { home, filepath } = homeWith(profile);
    const result = await run(home, ['config', 'show']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`The profile file ${filepath} is invalid.`);
    expect(result.stderr).toMatch(/defaultEnv: must not be production/);
  });

  it('names the file and the path of each invalid field', async () => {
    const { home, filepath } = homeWith({
      defaultEnv: 'local',
      environments: { local: { baseUrl: 'ftp://x', token: 'x' } },
    });
    const result = await run(home, ['stats']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`The profile file ${filepath} is invalid.`);
    expect(result.stderr).toContain('environments.local.baseUrl: must be an http(s) URL');
  });

  it('names a file that is not valid JSON', async () => {
    const { home } = homeWith('{ "defaultEnv": ', { name: 'broken.json' });
    const path = join(home, 'broken.json');
    const result = await run(home, ['--config', path, 'stats']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`Cannot read the profile file ${path}`);
  });
});

describe('the leak check every test relies on', () => {
  it('fails a run whose output shows a known token', async () => {
    // An environment named like a token is echoed back in "Unknown environment": the check must catch it.
    const leaked = newToken('leak');
    await expect(runInProcess(['--env', leaked, 'stats'])).rejects.toThrow(/shows a token/);
  });
});

describe('config init without a terminal', () => {
  it('exits 2 saying why, and writes nothing', async () => {
    const home = tempHome();
    const result = await runInProcess(['config', 'init'], { env: { HOME: home } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('einvoice config init asks questions, and there is no terminal to ask on.');
    // The example profile file of this checkout, which the CLI names in its hints.
    expect(result.stderr).toContain(
      `copy ${fileURLToPath(new URL('../../.eintvoicerc.example', import.meta.url))} to .einvoicerc`,
    );
    expect(existsSync(join(home, '.einvoicerc'))).toBe(false);
  });
});
