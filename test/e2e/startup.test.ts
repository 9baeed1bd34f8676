import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../helpers/cli.js';
import { startTestServer, statisticsHandler, type TestServer } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';

// Start-up loads what a command uses and nothing else (the timings are `npm run bench`'s; this checks what loads).
// A preloaded module records the Node.js modules a run loaded, whoever asked for them.

/** The Node.js built-in modules `einvoice args` loads, and its result. */
async function builtinsLoaded(args: string[], home: string) {
  const record = join(home, 'builtins.json');
  const probe = join(home, 'record-builtins.cjs');
  writeFileSync(
    probe,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.moduleLoadList)));`,
  );
  const result = await runCli(args, { env: { HOME: home, NODE_OPTIONS: `--require ${probe}` } });
  const loaded = (JSON.parse(readFileSync(record, 'utf8')) as string[])
    .filter((entry) => entry.startsWith('NativeModule ') && !entry.startsWith('NativeModule internal/'))
    .map((entry) => entry.slice('NativeModule '.length));
  return { result, loaded };
}

describe('start-up', () => {
  let server: TestServer;
  let home: string;
  beforeAll(async () => {
    server = await startTestServer(statisticsHandler());
    home = tempHome();
    writeProfile(home, localProfile(server.url, 'startup-token-0123456789'));
  });
  afterAll(() => server.close());

  it('stats leaves out what got, commander and the profile loader load for options einvoice never uses', async () => {
    const { result, loaded } = await builtinsLoaded(['stats', '--json'], home);
    expect(result.code, result.stderr).toBe(0);
    expect(loaded).toContain('http');
    // http2 (got's HTTP/2 client), dns (its DNS cache), child_process and dgram (commander's programs as
    // subcommands, the profile's tokenCommand).
    expect(loaded.filter((name) => ['http2', 'dns', 'child_process', 'dgram'].includes(name))).toEqual([]);
  });

  it('--help and --version into a pipe load no HTTP, no streams and no command tree', async () => {
    for (const args of [['--help'], ['stats', '--help'], ['--version']]) {
      const { result, loaded } = await builtinsLoaded(args, tempHome());
      expect(result.code).toBe(0);
      expect(
        loaded.filter((name) => ['http', 'net', 'stream', 'vm'].includes(name)),
        args.join(' '),
      ).toEqual([]);
    }
  });
});
