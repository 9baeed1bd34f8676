import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';
import { describe, expect, it } from 'vitest';

// The standalone executables `npm run build:binaries` writes to release/ (`npm run test:binaries` runs these after
// it, then the spawned end-to-end tests against the executable). The one for this machine runs every command with
// an empty environment: no Node, no PATH, only a HOME. The others are checked for their executable format and for
// the blob postject injected.

const repo = fileURLToPath(new URL('../..', import.meta.url));
const release = join(repo, 'release');
const home = () => mkdtempSync(join(tmpdir(), 'einvoice-binary-'));
/** The executable, copied alone into a folder of its own: it must find nothing of the repository beside it. */
const executable = join(home(), 'einvoice');
copyFileSync(join(release, 'einvoice-linux-x64'), executable);
chmodSync(executable, 0o755);
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the executable in `home` with nothing in its environment but HOME. */
function run(home: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(executable, args, { cwd: home, env: { HOME: home } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

describe('release/einvoice-linux-x64', () => {
  it("prints the sandbox's statistics table with an empty environment", async () => {
    const result = await run(home(), ['stats']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Invoices\s+Count\s+Amount/);
    expect(result.stdout).toMatch(/^Paid\s+2\s+630\.50/m);
  });

  it('answers --version and the help of every command', async () => {
    const cwd = home();
    expect((await run(cwd, ['--version'])).stdout.trim()).toBe(version);
    // Every command, found as a person finds them: from the root's help down, by the lists under "Commands:".
    const commands: string[] = [];
    const visit = async (words: string[]): Promise<void> => {
      const command = words.join(' ');
      const help = await run(cwd, [...words, '--help']);
      expect(help.code, `einvoice ${command} --help`).toBe(0);
      expect(help.stdout, `einvoice ${command} --help`).toMatch(
        new RegExp(`^Usage: einvoice${command ? ` ${command}` : ''} \\[options\\]`),
      );
      commands.push(command);
      const listed = help.stdout.split('\nCommands:\n')[1]?.split('\n\n')[0]?.split('\n') ?? [];
      for (const line of listed) {
        const name = /^ {2}(\S+)/.exec(line)?.[1];
        if (name && name !== 'help') await visit([...words, name]);
      }
    };
    await visit([]);
    expect(commands.length).toBeGreaterThanOrEqual(20);
  });

  it('runs schema, template, completion and config, reading the files it carries', async () => {
    const cwd = home();
    const schema = await run(cwd, ['schema', 'single']);
    expect(schema.code, schema.stderr).toBe(0);
    expect(JSON.parse(schema.stdout)).toHaveProperty('properties.amount');
    const template = await run(cwd, ['template', 'single', '--format', 'json']);
    expect(template.code, template.stderr).toBe(0);
    expect(JSON.parse(template.stdout)).toMatchObject({ customer: expect.any(Object) as unknown });
    const completion = await run(cwd, ['completion', 'bash']);
    expect(completion.stdout).toContain('complete ');
    expect((await run(cwd, ['config', 'show'])).stdout).toMatch(/^Environment\s+sandbox/m);
    const check = await run(cwd, ['config', 'check']);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toMatch(/✓ token accepted/);
    // No terminal to ask in: refused, naming the example profile as the release attaches it.
    const init = await run(cwd, ['config', 'init']);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain('the .eintvoicerc.example attached to each release');
  });

  it('creates, pays, refunds and lists invoices in the built-in sandbox, and a file of many with a JUnit report', async () => {
    const cwd = home();
    const created = await run(cwd, [
      ...['create', 'single', '--customer-name', 'Mona Adel', '--customer-mobile', '+201001234567'],
      ...['--amount', '12.50', '--sending-date', 'today', '--release-date', 'today', '--expiry-date', '+30d'],
      ...['--note', 'Smoke test', '--yes', '--json'],
    ]);
    expect(created.code, created.stderr).toBe(0);
    const { invoiceNumber } = JSON.parse(created.stdout) as { invoiceNumber: string };
    const paid = await run(cwd, ['sandbox', 'pay', invoiceNumber]);
    expect(paid.code, paid.stderr).toBe(0);
    const orderReference = paid.stdout.trim();
    const refund = await run(cwd, [
      ...['refund', invoiceNumber, '--amount', '2.50', '--reason', 'Smoke', '--order-ref', orderReference, '--yes'],
    ]);
    expect(refund.code, refund.stderr).toBe(0);
    for (const args of [
      ['sandbox', 'outbox'],
      ['sandbox', 'expire', '--by', '1d'],
      ['sandbox', 'reset', '--empty'],
    ]) {
      const result = await run(cwd, args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    const cancel = await run(cwd, ['sandbox', 'cancel', invoiceNumber]);
    // The sandbox was emptied: the invoice is gone, and the answer says so with the service's exit code.
    expect(cancel.code).not.toBe(0);
    expect(cancel.stderr).toContain(invoiceNumber);

    writeFileSync(
      join(cwd, 'sheet.csv'),
      [
        'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note',
        'BIN-1,Mona Adel,+201001234567,100.50,2030-01-01,2030-01-01,2030-02-01,One',
        'BIN-2,Amr Hassan,,ten,2030-01-01,2030-01-01,2030-02-01,Two',
      ].join('\n'),
    );
    const many = await run(cwd, [
      'create',
      'single',
      '--file',
      'sheet.csv',
      '--skip-invalid',
      '--yes',
      '--report',
      'r.xml',
    ]);
    expect(many.code, many.stderr).toBe(6);
    const xml = readFileSync(join(cwd, 'r.xml'), 'utf8');
    const schema = readFileSync(join(repo, 'test', 'fixtures', 'junit.xsd'), 'utf8');
    expect((await validateXML({ xml: [{ fileName: 'r.xml', contents: xml }], schema: [schema] })).valid).toBe(true);
    expect(xml.match(/<testcase /g)).toHaveLength(2);
  });

  it('serves the sandbox and its dashboard from the files it carries', async () => {
    const child = spawn(executable, ['sandbox', 'serve', '--port', '0', '--ui'], {
      cwd: home(),
      env: { HOME: home() },
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          seen += chunk;
          const match = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
          if (match?.[1]) resolve(match[1]);
        });
        child.on('exit', (code) => reject(new Error(`sandbox serve ended with ${code}: ${seen}`)));
      });
      for (const name of ['index.html', 'dashboard.js', 'dashboard.css']) {
        const response = await fetch(`${url}/__sandbox/ui/${name}`);
        expect(response.status, name).toBe(200);
        expect(await response.text(), name).toBe(readFileSync(join(repo, 'dashboard', name), 'utf8'));
      }
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('every executable of release/', () => {
  const sums = readFileSync(join(release, 'SHA256SUMS'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split('  ') as [string, string]);

  it('is listed in SHA256SUMS with its digest', () => {
    expect(sums.map(([, name]) => name)).toEqual(
      expect.arrayContaining(['einvoice-linux-x64', 'einvoice-linux-arm64', 'einvoice-win-x64.exe']),
    );
    for (const [digest, name] of sums) {
      expect(
        createHash('sha256')
          .update(readFileSync(join(release, name)))
          .digest('hex'),
        name,
      ).toBe(digest);
    }
  });

  it("is an executable of its platform, its machine's format, with the blob injected and its fuse set", () => {
    for (const [, name] of sums) {
      const bytes = readFileSync(join(release, name));
      const [, os, arch] = /^einvoice-(linux|win|darwin)-(x64|arm64)/.exec(name) ?? [];
      if (os === 'linux') {
        // ELF, 64-bit, little-endian; e_machine x86-64 (62) or AArch64 (183).
        expect(bytes.subarray(0, 4).toString('latin1'), name).toBe('\x7fELF');
        expect(bytes[4], name).toBe(2);
        expect(bytes.readUInt16LE(18), name).toBe(arch === 'x64' ? 62 : 183);
      } else if (os === 'win') {
        // MZ, then the PE header the DOS header points at; machine AMD64.
        expect(bytes.subarray(0, 2).toString('latin1'), name).toBe('MZ');
        const pe = bytes.readUInt32LE(0x3c);
        expect(bytes.subarray(pe, pe + 4).toString('latin1'), name).toBe('PE\0\0');
        expect(bytes.readUInt16LE(pe + 4), name).toBe(0x8664);
      } else {
        // Mach-O 64-bit; CPU type x86-64 or ARM64.
        expect(bytes.readUInt32LE(0), name).toBe(0xfeedfacf);
        expect(bytes.readUInt32LE(4), name).toBe(arch === 'x64' ? 0x01000007 : 0x0100000c);
      }
      // postject flips the fuse Node checks at start-up from :0 to :1 once a blob is in.
      expect(bytes.includes('NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1'), name).toBe(true);
    }
  });
});
