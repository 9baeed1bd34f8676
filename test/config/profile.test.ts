import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeTokenSource, resolveProfile, type ProfileRequest } from '../../src/config/profile.js';
import { AuthError, UsageError } from '../../src/errors.js';
import { writeProfile } from '../helpers/profile.js';

const fileToken = 'file-token-0123456789abcdef';
const envToken = 'env-token-0123456789abcdef';

/** A fresh folder holding `config` as `.einvoicerc.json`; resolveProfile is pointed at it explicitly. */
function withProfile(config: object | string, mode?: number, name?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-profile-'));
  const filepath = writeProfile(dir, config, { mode, name });
  return { dir, filepath };
}

function resolveFrom(filepath: string, request: Partial<ProfileRequest> = {}) {
  return resolveProfile({ cwd: request.cwd ?? tmpdir(), config: filepath, environment: {}, ...request });
}

const twoEnvironments = {
  defaultEnv: 'staging',
  environments: {
    staging: { baseUrl: 'https://staging.example.com', token: fileToken },
    qa: { baseUrl: 'https://qa.example.com', tokenEnv: 'QA_TOKEN' },
    production: { baseUrl: 'https://invoices.example.com', tokenCommand: `printf %s ${envToken}` },
  },
};

describe('selecting the environment', () => {
  it('takes --env over EINVOICE_ENV over defaultEnv', async () => {
    const { filepath } = withProfile(twoEnvironments);
    const byDefault = await resolveFrom(filepath);
    expect(byDefault).toMatchObject({
      name: 'staging',
      selectedBy: 'defaultEnv',
      baseUrl: 'https://staging.example.com',
    });
    expect(byDefault.notice).toBeUndefined();

    const byVariable = await resolveFrom(filepath, { environment: { EINVOICE_ENV: 'qa' } });
    expect(byVariable).toMatchObject({ name: 'qa', selectedBy: 'EINVOICE_ENV' });

    const byFlag = await resolveFrom(filepath, { env: 'production', environment: { EINVOICE_ENV: 'qa' } });
    expect(byFlag).toMatchObject({ name: 'production', selectedBy: '--env', isProduction: true });
  });

  it('falls back to the embedded sandbox with a notice when nothing names an environment', async () => {
    const { filepath } = withProfile({ environments: { staging: twoEnvironments.environments.staging } });
    const profile = await resolveFrom(filepath);
    expect(profile).toMatchObject({
      name: 'sandbox',
      selectedBy: 'default',
      isEmbeddedSandbox: true,
      tokenSource: { kind: 'embedded-sandbox' },
    });
    expect(profile.notice).toContain('built-in sandbox');
    expect(profile.notice).toContain(filepath);
  });

  it('uses a served sandbox when the sandbox environment has a baseUrl', async () => {
    const { filepath } = withProfile({
      environments: { sandbox: { baseUrl: 'http://127.0.0.1:4010', token: fileToken } },
    });
    const profile = await resolveFrom(filepath);
    expect(profile).toMatchObject({ name: 'sandbox', isEmbeddedSandbox: false, baseUrl: 'http://127.0.0.1:4010' });
    await expect(profile.readToken()).resolves.toBe(fileToken);
  });

  it('rejects an unknown environment, listing the known ones', async () => {
    const { filepath } = withProfile(twoEnvironments);
    const error = await resolveFrom(filepath, { env: 'stagign' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('Unknown environment "stagign". Did you mean staging?');
    expect((error as UsageError).hint).toContain('sandbox, staging, qa, production');
  });

  it('takes an environment the file lacks whole from EINVOICE_BASE_URL and EINVOICE_TOKEN', async () => {
    const { filepath } = withProfile(twoEnvironments);
    const environment = { EINVOICE_BASE_URL: 'https://ci.example.com', EINVOICE_TOKEN: envToken };
    const profile = await resolveFrom(filepath, { env: 'ci', environment });
    expect(profile).toMatchObject({ name: 'ci', baseUrl: 'https://ci.example.com', isProduction: false });
    expect(profile.tokenSource).toEqual({ kind: 'env-override', variable: 'EINVOICE_TOKEN' });
    await expect(profile.readToken()).resolves.toBe(envToken);
    // Without EINVOICE_TOKEN it has no token, and says how to give it one.
    const tokenless = await resolveFrom(filepath, {
      env: 'ci',
      environment: { EINVOICE_BASE_URL: 'https://ci.example.com' },
    });
    await expect(tokenless.readToken()).rejects.toThrow('No token for the ci environment');
  });

  it('lets EINVOICE_BASE_URL override the file', async () => {
    const { filepath } = withProfile(twoEnvironments);
    const profile = await resolveFrom(filepath, { environment: { EINVOICE_BASE_URL: 'http://127.0.0.1:9' } });
    expect(profile).toMatchObject({ baseUrl: 'http://127.0.0.1:9', baseUrlSource: 'EINVOICE_BASE_URL' });
  });
});

describe('token sources', () => {
  it('reads a token written in the file, and says where without the token', async () => {
    const { filepath } = withProfile(twoEnvironments);
    const profile = await resolveFrom(filepath);
    expect(profile.tokenSource).toEqual({ kind: 'file', filepath });
    expect(describeTokenSource(profile.tokenSource)).toBe(`token in ${filepath}`);
    await expect(profile.readToken()).resolves.toBe(fileToken);
  });

  it('reads tokenEnv from the named variable, and fails with exit 3 naming it when unset', async () => {
    const { filepath } = withProfile(twoEnvironments);
    const profile = await resolveFrom(filepath, { env: 'qa', environment: { QA_TOKEN: envToken } });
    expect(describeTokenSource(profile.tokenSource)).toBe('env QA_TOKEN (tokenEnv)');
    expect(describeTokenSource(profile.tokenSource, { QA_TOKEN: envToken })).toBe('env QA_TOKEN (tokenEnv)');
    expect(describeTokenSource(profile.tokenSource, { QA_TOKEN: ' ' })).toBe(
      'env QA_TOKEN (tokenEnv), which is not set: commands that send will exit 3',
    );
    await expect(profile.readToken()).resolves.toBe(envToken);

    const unset = await resolveFrom(filepath, { env: 'qa' });
    const error = await unset.readToken().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ exitCode: 3, message: expect.stringContaining('qa environment') });
    expect((error as AuthError).message).toContain('QA_TOKEN');
    expect((error as AuthError).hint).toContain('environments.qa');
  });

  it('runs tokenCommand and keeps its trimmed stdout', async () => {
    const { filepath } = withProfile(twoEnvironments);
    const profile = await resolveFrom(filepath, { env: 'production', environment: { PATH: process.env.PATH } });
    expect(describeTokenSource(profile.tokenSource)).toBe('command (tokenCommand)');
    await expect(profile.readToken()).resolves.toBe(envToken);
  });

  it('reports a failing tokenCommand without repeating its output', async () => {
    const { filepath } = withProfile({
      environments: { prod2: { baseUrl: 'https://x.example.com', tokenCommand: `echo ${envToken}; exit 3` } },
    });
    const profile = await resolveFrom(filepath, { env: 'prod2', environment: { PATH: process.env.PATH } });
    const error = (await profile.readToken().catch((caught: unknown) => caught)) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toContain('prod2');
    expect(`${error.message} ${error.hint}`).not.toContain(envToken);
  });

  it('says when the shell found no such tokenCommand', async () => {
    const { filepath } = withProfile({
      environments: { prod3: { baseUrl: 'https://x.example.com', tokenCommand: 'no-such-password-manager read x' } },
    });
    const profile = await resolveFrom(filepath, { env: 'prod3', environment: { PATH: process.env.PATH } });
    await expect(profile.readToken()).rejects.toThrow(
      'The tokenCommand of the prod3 environment could not be run: the shell found no such command (exit 127).',
    );
  });

  it('lets EINVOICE_TOKEN override any source of the file', async () => {
    const { filepath } = withProfile(twoEnvironments);
    const profile = await resolveFrom(filepath, { environment: { EINVOICE_TOKEN: envToken } });
    expect(describeTokenSource(profile.tokenSource)).toBe('env EINVOICE_TOKEN');
    await expect(profile.readToken()).resolves.toBe(envToken);
  });

  it('fails with exit 3 for an environment without any token source', async () => {
    const { filepath } = withProfile({ environments: { bare: { baseUrl: 'https://bare.example.com' } } });
    const profile = await resolveFrom(filepath, { env: 'bare' });
    expect(profile.tokenSource).toEqual({ kind: 'none' });
    await expect(profile.readToken()).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining('bare') });
  });

  it('flags a file that holds a token and others can read, whichever environment is selected', async () => {
    const open = await resolveFrom(withProfile(twoEnvironments, 0o644).filepath);
    expect(open.tokenFileReadableByOthers).toBe(true);
    const otherEnvironment = await resolveFrom(withProfile(twoEnvironments, 0o644).filepath, { env: 'qa' });
    expect(otherEnvironment.tokenFileReadableByOthers).toBe(true);
    const closed = await resolveFrom(withProfile(twoEnvironments, 0o600).filepath);
    expect(closed.tokenFileReadableByOthers).toBe(false);
    const noToken = withProfile({ environments: { qa: twoEnvironments.environments.qa } }, 0o644);
    expect((await resolveFrom(noToken.filepath, { env: 'qa' })).tokenFileReadableByOthers).toBe(false);
  });
});

describe('reading the file', () => {
  it('finds a YAML .einvoicerc in the working folder', async () => {
    const yaml = [
      'defaultEnv: staging',
      'environments:',
      '  staging:',
      '    baseUrl: https://staging.example.com',
      '    tokenEnv: ST_TOKEN',
      '',
    ];
    const { dir, filepath } = withProfile(yaml.join('\n'), 0o600, '.einvoicerc');
    const profile = await resolveProfile({ cwd: dir, environment: {} });
    expect(profile).toMatchObject({
      name: 'staging',
      configFile: filepath,
      tokenSource: { kind: 'env', variable: 'ST_TOKEN' },
    });
  });

  it('names the file and each invalid field', async () => {
    const { filepath } = withProfile({
      environments: { local: { baseUrl: 'not a url', token: 'a-token-of-twelve', tokenEnv: 'X' } },
      colour: true,
    });
    const error = (await resolveFrom(filepath).catch((caught: unknown) => caught)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain(filepath);
    const paths = error.issues.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['environments.local.baseUrl', 'environments.local.tokenEnv']));
    expect(error.issues.some((issue) => issue.path.includes('colour') || issue.message.includes('colour'))).toBe(true);
  });

  it('refuses production as defaultEnv', async () => {
    const { filepath } = withProfile({ ...twoEnvironments, defaultEnv: 'production' });
    const error = (await resolveFrom(filepath).catch((caught: unknown) => caught)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.issues).toEqual([
      expect.objectContaining({ path: 'defaultEnv', message: expect.stringContaining('production') }),
    ]);
  });

  it('reports a file that is not valid JSON as a usage error naming it', async () => {
    const { filepath } = withProfile('{ "environments": ');
    await expect(resolveFrom(filepath)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining(filepath),
    });
  });
});
