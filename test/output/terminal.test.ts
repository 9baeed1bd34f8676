import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CommandContext, GlobalOptions } from '../../src/context.js';
import { AuthError, ServiceRejectedError, UsageError } from '../../src/errors.js';
import { printError } from '../../src/output/errors.js';
import { renderRequestPreview } from '../../src/output/request-preview.js';
import { animationAllowed, colorAllowed, createTerminal } from '../../src/output/terminal.js';

/** A context whose streams collect what is written; `tty` makes them claim to be terminals. */
function fakeContext(env: NodeJS.ProcessEnv = {}, tty = false) {
  const collect = () => {
    const stream = Object.assign(new PassThrough(), { isTTY: tty, columns: tty ? 80 : undefined, text: '' });
    stream.on('data', (chunk: Buffer) => (stream.text += chunk.toString('utf8')));
    return stream;
  };
  const stdout = collect();
  const stderr = collect();
  const context: CommandContext = {
    stdin: Object.assign(new PassThrough(), { isTTY: tty }),
    stdout,
    stderr,
    env,
    cwd: '/',
  };
  return { context, stdout, stderr };
}

const options = (overrides: Partial<GlobalOptions> = {}): GlobalOptions => ({ input: true, color: true, ...overrides });

describe('colorAllowed', () => {
  it('colours a terminal, not a pipe', () => {
    expect(colorAllowed({ isTTY: true }, {}, { color: true })).toBe(true);
    expect(colorAllowed({ isTTY: false }, {}, { color: true })).toBe(false);
  });

  it('lets FORCE_COLOR colour a pipe, and NO_COLOR, TERM=dumb and --no-color win over it', () => {
    expect(colorAllowed({}, { FORCE_COLOR: '1' }, { color: true })).toBe(true);
    expect(colorAllowed({}, { FORCE_COLOR: '0' }, { color: true })).toBe(false);
    expect(colorAllowed({}, { FORCE_COLOR: '1', NO_COLOR: '1' }, { color: true })).toBe(false);
    expect(colorAllowed({ isTTY: true }, { NO_COLOR: '1' }, { color: true })).toBe(false);
    expect(colorAllowed({ isTTY: true }, { NO_COLOR: '' }, { color: true })).toBe(true);
    expect(colorAllowed({ isTTY: true }, { TERM: 'dumb' }, { color: true })).toBe(false);
    expect(colorAllowed({ isTTY: true }, { FORCE_COLOR: '1' }, { color: false })).toBe(false);
  });
});

describe('createTerminal', () => {
  it('writes data on stdout and everything else on stderr', () => {
    const { context, stdout, stderr } = fakeContext();
    const terminal = createTerminal(context, options());
    terminal.data('the data');
    terminal.info('a notice');
    terminal.warn('a warning');
    terminal.debug('a debug line');
    expect(stdout.text).toBe('the data\n');
    expect(stderr.text).toBe('a notice\n! a warning\n');
  });

  it('writes debug lines only with --verbose', () => {
    const { context, stderr } = fakeContext();
    createTerminal(context, options({ verbose: true })).debug('> GET http://127.0.0.1/x');
    expect(stderr.text).toBe('> GET http://127.0.0.1/x\n');
  });

  it('is interactive and animated only on a terminal outside CI without --no-input', () => {
    expect(createTerminal(fakeContext({}, true).context, options())).toMatchObject({
      interactive: true,
      animate: true,
    });
    expect(createTerminal(fakeContext({ CI: 'true' }, true).context, options())).toMatchObject({
      interactive: false,
      animate: false,
    });
    expect(createTerminal(fakeContext({}, true).context, options({ input: false })).interactive).toBe(false);
    expect(createTerminal(fakeContext({}, false).context, options())).toMatchObject({
      interactive: false,
      animate: false,
    });
  });
});

describe('animationAllowed', () => {
  const terminal = { isTTY: true, columns: 80 };

  it('animates a sized terminal outside CI', () => {
    expect(animationAllowed(terminal, {}, { color: true })).toBe(true);
  });

  it('does not animate a terminal that reports no width', () => {
    expect(animationAllowed({ isTTY: true, columns: 0 }, {}, { color: true })).toBe(false);
    expect(animationAllowed({ isTTY: true }, {}, { color: true })).toBe(false);
  });

  it('does not animate with NO_COLOR, --no-color, TERM=dumb or in CI', () => {
    expect(animationAllowed(terminal, { NO_COLOR: '1' }, { color: true })).toBe(false);
    expect(animationAllowed(terminal, {}, { color: false })).toBe(false);
    expect(animationAllowed(terminal, { TERM: 'dumb' }, { color: true })).toBe(false);
    expect(animationAllowed(terminal, { CI: 'true' }, { color: true })).toBe(false);
  });

  it('does not animate a pipe, even with FORCE_COLOR', () => {
    expect(animationAllowed({ isTTY: false, columns: 80 }, { FORCE_COLOR: '1' }, { color: true })).toBe(false);
  });
});

describe('printError', () => {
  it('prints the message, one line per field and the hint', () => {
    const { context, stderr } = fakeContext();
    const error = new UsageError('The refund is incomplete; nothing was sent.', {
      issues: [
        { path: 'amount (--amount)', message: 'is required' },
        { path: 'reason (--reason)', message: 'is required' },
      ],
      hint: 'Give them as flags.',
    });
    printError(error, context, { verbose: false, color: true });
    expect(stderr.text).toBe(
      '✖ The refund is incomplete; nothing was sent.\n  amount (--amount): is required\n  reason (--reason): is required\nGive them as flags.\n',
    );
  });

  it('names the help topic of a refused date or amount, and none for a field that is only missing', () => {
    const print = (issues: { path: string; message: string }[]) => {
      const { context, stderr } = fakeContext();
      printError(new UsageError('The invoice is invalid; nothing was sent.', { issues }), context, {
        verbose: false,
        color: false,
      });
      return stderr.text;
    };
    expect(print([{ path: 'row 3, column expiryDate (H)', message: 'February 2026 has no 30th day' }])).toMatch(
      /\nsee: einvoice help dates\n$/,
    );
    expect(
      print([
        { path: 'record 2 (line 2): items[0].price', message: 'must be a number, written with a decimal point: 12.50' },
        { path: 'sendingDate (--sending-date)', message: 'must be a date' },
      ]),
    ).toMatch(/\nsee: einvoice help dates, einvoice help money\n$/);
    expect(print([{ path: 'amount (--amount)', message: 'is required' }])).not.toContain('see:');
    expect(print([{ path: 'customer.mobile', message: 'must be a mobile number' }])).not.toContain('see:');
  });

  it('shows at most 20 field issues and counts the rest', () => {
    const { context, stderr } = fakeContext();
    const issues = Array.from({ length: 23 }, (_, index) => ({
      path: `items[${index}].price`,
      message: 'is required',
    }));
    printError(new ServiceRejectedError('Rejected.', { status: 400, issues }), context, {
      verbose: false,
      color: false,
    });
    expect(stderr.text).toContain('items[19].price');
    expect(stderr.text).not.toContain('items[20].price');
    expect(stderr.text).toContain('...and 3 more');
  });

  it('prints an unexpected error with a pointer to --verbose, and its stack only with it', () => {
    const quiet = fakeContext();
    printError(new TypeError('boom'), quiet.context, { verbose: false, color: false });
    expect(quiet.stderr.text).toContain('Unexpected error: boom');
    expect(quiet.stderr.text).toContain('--verbose');
    const loud = fakeContext();
    printError(new TypeError('boom'), loud.context, { verbose: true, color: false });
    expect(loud.stderr.text).toContain('at ');
  });

  it('colours stderr only when allowed', () => {
    const forced = fakeContext({ FORCE_COLOR: '1' });
    printError(new AuthError('No token.'), forced.context, { verbose: false, color: true });
    expect(forced.stderr.text).toContain('\u001b[');
    const noColor = fakeContext({ FORCE_COLOR: '1' });
    printError(new AuthError('No token.'), noColor.context, { verbose: false, color: false });
    expect(noColor.stderr.text).not.toContain('\u001b[');
  });
});

describe('renderRequestPreview', () => {
  const request = { method: 'POST', url: 'https://x.example.com/invoice-api/invoices/7/refund', body: { amount: 5 } };

  it('shows method, URL, redacted headers and the body', () => {
    expect(renderRequestPreview(request, false)).toBe(
      [
        'POST https://x.example.com/invoice-api/invoices/7/refund',
        'Authorization: Bearer ***',
        'Content-Type: application/json',
        '',
        '{\n  "amount": 5\n}',
      ].join('\n'),
    );
  });

  it('is one JSON object with --json', () => {
    expect(JSON.parse(renderRequestPreview(request, true))).toEqual({
      ...request,
      headers: { Authorization: 'Bearer ***', 'Content-Type': 'application/json' },
    });
  });
});
