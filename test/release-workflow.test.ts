import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The release workflow (.github/workflows/release.yml), held to its shape: a tag is the whole of cutting a release
// (CONTRIBUTING.md), and what it publishes a user can check (docs/install.md). Nothing here runs it: GitHub does.

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const text = readFileSync(new URL('../.github/workflows/release.yml', import.meta.url), 'utf8');
const workflow = parse(text) as Workflow;

function job(name: string): Job {
  const found = workflow.jobs[name];
  if (!found) throw new Error(`release.yml has no job ${name}`);
  return found;
}

function indexOf(steps: Step[], matches: (step: Step) => boolean, what: string): number {
  const index = steps.findIndex(matches);
  if (index < 0) throw new Error(`no step ${what}`);
  return index;
}

describe('the release workflow', () => {
  it('runs on a version tag, and only there', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v*.*.*'] } });
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it('attests the build provenance of every file SHA256SUMS names, before it attaches them to the release', () => {
    const release = job('release');
    expect(release.needs).toEqual(['tarball', 'executable']);
    expect(release.permissions).toEqual({ contents: 'write', 'id-token': 'write', attestations: 'write' });
    const checksums = indexOf(release.steps, (step) => /> SHA256SUMS/.test(step.run ?? ''), 'writing SHA256SUMS');
    expect(release.steps[checksums]?.run).toMatch(/sha256sum einvoice-\* /);
    expect(release.steps[checksums]?.['working-directory']).toBe('assets');
    const attest = indexOf(
      release.steps,
      (step) => step.uses?.startsWith('actions/attest-build-provenance@') ?? false,
      'attesting',
    );
    expect(release.steps[attest]?.with).toEqual({ 'subject-checksums': 'assets/SHA256SUMS' });
    const attach = indexOf(release.steps, (step) => /gh release create/.test(step.run ?? ''), 'creating the release');
    expect(checksums).toBeLessThan(attest);
    expect(attest).toBeLessThan(attach);
    expect(release.steps[attach]?.run).toContain('assets/*');
    const major = indexOf(release.steps, (step) => /git push --force origin/.test(step.run ?? ''), 'moving v1');
    expect(release.steps[major]?.run).toContain('major="${GITHUB_REF_NAME%%.*}"');
    expect(attach).toBeLessThan(major);
  });

  it('publishes to npm by trusted publishing: an OIDC token, npm 11.5.1 or later, and no npm token anywhere', () => {
    const npm = job('npm');
    expect(npm.needs).toBe('release');
    expect(npm.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    const upgrade = indexOf(npm.steps, (step) => /npm install --global npm@\^11\.5\.1/.test(step.run ?? ''), 'npm');
    const publish = indexOf(npm.steps, (step) => /^npm publish /.test(step.run ?? ''), 'publishing');
    expect(upgrade).toBeLessThan(publish);
    expect(npm.steps[publish]?.env).toBeUndefined();
    expect(text).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN/);
  });
});
