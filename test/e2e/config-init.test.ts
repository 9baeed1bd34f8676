import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, terminalSessions, type PtySession } from '../helpers/pty.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';

// `einvoice config init` as a person runs it: in a real pseudo-terminal, each answer typed once its prompt is on the
// screen. The file it writes is then read by other commands, without a terminal.

let sandbox: TestSandbox;
const terminals = terminalSessions();

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const startInTerminal = (args: string[], home: string) => terminals.start(args, home);

/** Answers the questions for one environment whose token is typed into the file. */
async function answerTypedToken(cli: PtySession, name: string, baseUrl: string, token: string) {
  await cli.answer('Environment name', name);
  await cli.answer(`Base URL of ${name}`, baseUrl);
  await cli.waitFor(`Where does the ${name} token come from?`);
  cli.type(`${keys.down}${keys.down}${keys.enter}`); // an environment variable -> a command -> this file
  await cli.answer('Token', token);
}

/** Answers the time zone and currency questions that close the run. */
async function answerClock(cli: PtySession, timeZone = 'UTC', currency = '') {
  await cli.answer("Time zone of your invoices' dates", timeZone);
  await cli.answer('Currency shown beside amounts', currency);
}

const profilePath = (home: string) => join(home, '.einvoicerc');
const mode = (path: string) => statSync(path).mode & 0o777;

describe('config init in a terminal', () => {
  it('writes a 0600 .einvoicerc that config show and stats read, never showing the typed token', async () => {
    const home = tempHome();
    const cli = startInTerminal(['config', 'init'], home);
    await answerTypedToken(cli, 'local', sandbox.url, sandbox.token);
    await cli.answer('Add another environment?', 'n');
    await cli.waitFor('Default environment');
    cli.type(keys.enter); // local
    await cli.answer("Time zone of your invoices' dates", 'Cairo');
    await cli.waitFor('must be an IANA time zone, e.g. Africa/Cairo or UTC');
    cli.type(`${keys.backspace.repeat(5)}Africa/Cairo${keys.enter}`);
    await cli.answer('Currency shown beside amounts', 'egp');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(cli.screen()).toContain(`Wrote ${profilePath(home)}`);
    expect(cli.screen()).not.toContain(sandbox.token);

    expect(mode(profilePath(home))).toBe(0o600);
    expect(JSON.parse(readFileSync(profilePath(home), 'utf8'))).toEqual({
      defaultEnv: 'local',
      environments: { local: { baseUrl: sandbox.url, token: sandbox.token } },
      timeZone: 'Africa/Cairo',
      currency: 'EGP',
    });
    const show = await runInProcess(['config', 'show', '--json'], { env: { HOME: home } });
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({
      environment: 'local',
      selectedBy: 'defaultEnv',
      baseUrl: sandbox.url,
      configFile: profilePath(home),
      token: `token in ${profilePath(home)}`,
    });
    const stats = await runInProcess(['stats', '--json'], { env: { HOME: home } });
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toEqual(await sandbox.api.statistics());
  });

  it('asks again for an invalid answer, and never offers production as the default', async () => {
    const home = tempHome();
    const cli = startInTerminal(['config', 'init'], home);
    await cli.answer('Environment name', 'my env');
    await cli.waitFor('must be letters, digits, - or _');
    cli.type(`${keys.backspace.repeat(6)}production${keys.enter}`);
    await cli.answer('Base URL of production', 'ftp://service.example.com');
    await cli.waitFor('must be an http(s) URL such as https://staging.example.com');
    cli.type(`${keys.backspace.repeat(25)}https://service.example.com${keys.enter}`);
    await cli.waitFor('Where does the production token come from?');
    cli.type(keys.enter); // an environment variable
    await cli.answer('Name of the variable', '');
    await cli.answer('Add another environment?', 'n');
    await cli.waitFor('Default environment');
    cli.type(keys.enter);
    await answerClock(cli);
    expect(await cli.exited).toEqual({ code: 0, signal: null });

    expect(JSON.parse(readFileSync(profilePath(home), 'utf8'))).toEqual({
      defaultEnv: 'sandbox',
      environments: {
        production: { baseUrl: 'https://service.example.com', tokenEnv: 'EINVOICE_PRODUCTION_TOKEN' },
      },
      timeZone: 'UTC',
    });
    const show = await runInProcess(['config', 'show', '--env', 'production', '--json'], { env: { HOME: home } });
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ token: 'env EINVOICE_PRODUCTION_TOKEN (tokenEnv)' });
  });

  it('asks for another name rather than replace an environment entered already', async () => {
    const home = tempHome();
    const cli = startInTerminal(['config', 'init'], home);
    await cli.answer('Environment name', '');
    await cli.answer('Base URL of staging', 'https://staging.example.com');
    await cli.waitFor('Where does the staging token come from?');
    cli.type(keys.enter); // an environment variable
    await cli.answer('Name of the variable', '');
    await cli.answer('Add another environment?', 'y');
    await cli.answer('Environment name', `${keys.backspace.repeat(10)}staging`);
    await cli.waitFor('staging is entered already: choose another name');
    cli.type(`${keys.backspace.repeat(7)}qa${keys.enter}`);
    await cli.answer('Base URL of qa', 'https://qa.example.com');
    await cli.waitFor('Where does the qa token come from?');
    cli.type(keys.enter);
    await cli.answer('Name of the variable', '');
    await cli.answer('Add another environment?', 'n');
    await cli.waitFor('Default environment');
    cli.type(keys.enter);
    await answerClock(cli);
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(Object.keys(JSON.parse(readFileSync(profilePath(home), 'utf8')).environments)).toEqual(['staging', 'qa']);
  });

  it('refuses to replace an existing .einvoicerc without --force, before asking anything', async () => {
    const home = tempHome();
    writeFileSync(profilePath(home), '{"defaultEnv":"sandbox"}\n');
    const cli = startInTerminal(['config', 'init'], home);
    expect(await cli.exited).toEqual({ code: 2, signal: null });
    expect(cli.screen()).toContain(`${profilePath(home)} already exists; nothing was written.`);
    expect(cli.screen()).toContain('--force');
    expect(cli.screen()).not.toContain('Environment name');
    expect(readFileSync(profilePath(home), 'utf8')).toBe('{"defaultEnv":"sandbox"}\n');
  });

  it('stops on Ctrl-C with exit 130, saying the file was not written', async () => {
    const home = tempHome();
    const cli = startInTerminal(['config', 'init'], home);
    await cli.answer('Environment name', 'staging');
    await cli.waitFor('Base URL of staging');
    cli.type(keys.ctrlC);
    expect(await cli.exited).toEqual({ code: 130, signal: null });
    expect(cli.screen()).toContain(`Interrupted: ${profilePath(home)} was not written.`);
    expect(cli.screen()).not.toContain('nothing was sent');
    expect(() => statSync(profilePath(home))).toThrow();
  });

  it('replaces it with --force, and makes a file others could read 0600', async () => {
    const home = tempHome();
    writeFileSync(profilePath(home), '{"defaultEnv":"sandbox"}\n', { mode: 0o644 });
    const cli = startInTerminal(['config', 'init', '--force'], home);
    await answerTypedToken(cli, 'staging', 'https://staging.example.com', 'typed-token-0123456789');
    await cli.answer('Add another environment?', 'n');
    await cli.waitFor('Default environment');
    cli.type(keys.enter);
    await answerClock(cli);
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(cli.screen()).not.toContain('typed-token-0123456789');
    expect(mode(profilePath(home))).toBe(0o600);
    expect(JSON.parse(readFileSync(profilePath(home), 'utf8'))).toEqual({
      defaultEnv: 'staging',
      environments: { staging: { baseUrl: 'https://staging.example.com', token: 'typed-token-0123456789' } },
      timeZone: 'UTC',
    });
  });
});
