import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';

// Every command's --help ends with real examples, and a mistyped command or flag is answered with the closest one.
// The commands are found the way a person finds them: by reading `--help`, from the root down.

/** The subcommands a help text lists under "Commands:", without commander's own `help`. */
function listedCommands(help: string): string[] {
  const section = help.split('\nCommands:\n')[1];
  if (!section) return [];
  const lines = section.split('\n\n')[0]?.split('\n') ?? [];
  return lines
    .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
}

/** Every command path, each with its help text, walking the tree from the root's help. */
async function helpOfEveryCommand(): Promise<Map<string, string>> {
  const helps = new Map<string, string>();
  const visit = async (path: string[]) => {
    const result = await runInProcess([...path, '--help']);
    expect(result.code, `einvoice ${path.join(' ')} --help: ${result.stderr}`).toBe(0);
    helps.set(path.join(' '), result.stdout);
    await Promise.all(listedCommands(result.stdout).map((name) => visit([...path, name])));
  };
  await visit([]);
  return helps;
}

describe('--help', () => {
  it('ends with two or more real examples for every command', async () => {
    const helps = await helpOfEveryCommand();
    expect([...helps.keys()].sort()).toEqual(
      expect.arrayContaining(['', 'create', 'create single', 'sandbox serve', 'config init', 'schema', 'completion']),
    );
    expect(helps.size).toBeGreaterThanOrEqual(18);
    for (const [path, help] of helps) {
      const examples = help.trimEnd().split('\nExamples:\n')[1];
      expect(examples, `einvoice ${path} --help has no Examples section`).toBeDefined();
      const lines = (examples ?? '').split('\n');
      // The section is the last one: only example lines and their indented continuations follow it.
      expect(
        lines.every((line) => /^ {2}\$ einvoice /.test(line) || /^ {4,}\S/.test(line)),
        `einvoice ${path} --help`,
      ).toBe(true);
      const commands = lines.filter((line) => line.startsWith('  $ einvoice '));
      expect(commands.length, `einvoice ${path} --help`).toBeGreaterThanOrEqual(2);
      // A real example runs the command whose help shows it (or, at the root, any command there is).
      for (const line of commands) {
        const words = line.slice('  $ einvoice '.length).split(' ');
        const named = words.slice(0, path ? path.split(' ').length : 1).join(' ');
        expect(helps.has(named), `${line.trim()} in einvoice ${path} --help names no command`).toBe(true);
        if (path) expect(named, `${line.trim()} in einvoice ${path} --help`).toBe(path);
      }
    }
  });
});

describe('mistakes', () => {
  it('an unknown command exits 2 suggesting the closest one', async () => {
    const result = await runInProcess(['statz']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("✖ Unknown command 'statz'.\nDid you mean stats?\n");
  });

  it('list, get, show, export and reconcile, which the service has not, point to the invoices einvoice keeps (exit 2)', async () => {
    const meant = { list: 'list', get: 'show', show: 'show', export: 'export', reconcile: 'reconcile' };
    for (const [typed, verb] of Object.entries(meant)) {
      const result = await runInProcess([typed, '--ref', 'INV-1']);
      expect(result, typed).toEqual({
        code: 2,
        stdout: '',
        stderr: `✖ Unknown command '${typed}'.\nDid you mean einvoice invoices ${verb}?\n`,
      });
    }
    const asked = await runInProcess(['help', 'list']);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toBe("✖ No command or help topic 'list'.\nDid you mean einvoice invoices list?\n");
    // Under another command, the word is that command's business.
    const underSandbox = await runInProcess(['sandbox', 'list']);
    expect(underSandbox.code).toBe(2);
    expect(underSandbox.stderr).not.toContain('invoices');
  });

  it('an unknown command named like a property of every object is only unknown', async () => {
    const result = await runInProcess(['constructor']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: "✖ Unknown command 'constructor'.\n" });
  });

  it('help for a mistyped subcommand is refused as the unknown command, not answered with its group', async () => {
    for (const args of [
      ['help', 'create', 'singel'],
      ['create', 'singel', '--help'],
    ]) {
      const result = await runInProcess(args);
      expect(result, args.join(' ')).toMatchObject({
        code: 2,
        stdout: '',
        stderr: "✖ Unknown command 'singel'.\nDid you mean single?\n",
      });
    }
    // A command's own arguments before --help are not taken for subcommands.
    const refund = await runInProcess(['refund', '1000001', '--help']);
    expect(refund.code).toBe(0);
    expect(refund.stdout).toMatch(/^Usage: einvoice refund /);
  });

  it('an unknown flag exits 2 suggesting the closest one', async () => {
    const result = await runInProcess(['stats', '--jsn']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("✖ Unknown option '--jsn'.\nDid you mean --json?\n");
  });

  it('words the other errors of commander as the CLI words its own', async () => {
    const missing = await runInProcess(['sandbox', 'pay']);
    expect(missing).toMatchObject({ code: 2, stdout: '', stderr: "✖ Missing required argument 'invoiceNumber'.\n" });
    const invalid = await runInProcess(['stats', '--timeout', 'abc']);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toBe(
      "✖ Option '--timeout <seconds>' argument 'abc' is invalid: must be a whole number of at least 1.\n",
    );
  });

  it('a value outside the choices of an argument or a flag suggests the closest choice, when one is close', async () => {
    const kind = await runInProcess(['template', 'singel']);
    expect(kind).toMatchObject({ code: 2, stdout: '' });
    expect(kind.stderr).toBe(
      "✖ Command-argument value 'singel' is invalid for argument 'kind'. Allowed choices are single, recurring, refunds, orders.\n" +
        'Did you mean single?\n',
    );
    const format = await runInProcess(['template', 'single', '--format', 'jsn']);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/Allowed choices are csv, xlsx, ndjson, json\.\nDid you mean json\?\n$/);
    const far = await runInProcess(['template', 'invoice']);
    expect(far.code).toBe(2);
    expect(far.stderr).not.toContain('Did you mean');
  });

  it('an unknown subcommand of a group suggests within the group', async () => {
    const result = await runInProcess(['sandbox', 'outbx']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Did you mean outbox?');
  });
});
