import type { CommandContext } from '../../context.js';
import type { ConfigCheckOptions } from './flags.js';
import { describeTokenSource, type Profile } from '../../config/profile.js';
import { isJwt, jwtExpiry } from '../../config/token-expiry.js';
import { AuthError, EinvoiceError, ServiceUnavailableError } from '../../errors.js';
import { countOf, toJson } from '../../output/format.js';
import { isLoopback } from '../../schemas/loopback.js';
import { terminalSafe } from '../../output/safe-text.js';
import { openSession, type Session } from '../../session.js';

/** How one check ended: passed, passed with something to look at, failed, or could not be made. */
type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One line of `config check`. */
interface Check {
  check: 'token' | 'token expiry' | 'service' | 'clock' | 'statistics path' | 'token accepted';
  status: CheckStatus;
  detail: string;
  /** Which exit code a failure of this check calls for. */
  failure?: 'token' | 'service';
}

const day = 86_400_000;
/** A token that expires sooner than this is warned about. */
const expiryWarningMs = 7 * day;
/** A clock further off the service's than this is warned about: relative dates and expiries move with it. */
const clockWarningMs = 60_000;
const timeoutMs = 15_000;

/**
 * `einvoice config check`: verifies the selected environment without changing anything, one line per check:
 * the token's source, a JWT's expiry, the service over TLS, the clock, the statistics path, the token accepted.
 */
export async function checkConfig(options: ConfigCheckOptions, context: CommandContext): Promise<void> {
  const session = await openSession(options, context);
  const { terminal, profile } = session;
  const requestTimeoutMs = options.timeout === undefined ? timeoutMs : options.timeout * 1000;
  const checks = profile.isEmbeddedSandbox
    ? await checkEmbeddedSandbox(session)
    : await checkService(profile, requestTimeoutMs);

  if (terminal.json) {
    terminal.data(
      toJson({
        environment: profile.name,
        baseUrl: profile.baseUrl ?? null,
        ok: checks.every((check) => check.status !== 'fail'),
        checks: checks.map(({ check, status, detail }) => ({ check, status, detail })),
      }),
    );
  } else {
    const { out } = terminal;
    const mark: Record<CheckStatus, string> = {
      ok: out.green('✓'),
      warn: out.yellow('!'),
      fail: out.red('✗'),
      skip: out.dim('-'),
    };
    const width = Math.max(...checks.map((check) => check.check.length)) + 2;
    terminal.data(
      [
        `${profile.name} (${profile.baseUrl ?? 'the built-in sandbox'})`,
        ...checks.map((check) => `  ${mark[check.status]} ${check.check.padEnd(width)}${check.detail}`),
      ].join('\n'),
    );
  }
  throwFailure(checks, profile);
}

/** The exit code of the first failure that matters most: a token problem, else a service that cannot be reached. */
function throwFailure(checks: Check[], profile: Profile): void {
  const failed = checks.filter((check) => check.status === 'fail');
  const token = failed.find((check) => check.failure === 'token' && check.check !== 'token accepted');
  const service = failed.find((check) => check.failure === 'service');
  const refused = failed.find((check) => check.check === 'token accepted');
  const first = token ?? service ?? refused;
  if (!first) return;
  const failures = [...new Set([token, service, refused])].filter((check) => check !== undefined);
  const told = failures.map((check) => `${check.check}: ${check.detail.replace(/\.$/, '')}`).join('; ');
  const message = `The ${profile.name} environment failed its check: ${told}.`;
  if (first.failure === 'service') {
    throw new ServiceUnavailableError(message, { mayHaveReachedService: false });
  }
  throw new AuthError(message);
}

/** The token, read from its source as a command would read it; a problem is the check's failure. */
async function readToken(profile: Profile, timeout: number): Promise<{ token?: string; check: Check }> {
  const source = describeTokenSource(profile.tokenSource);
  try {
    const token = await profile.readToken({ timeoutMs: timeout });
    return { token, check: { check: 'token', status: 'ok', detail: `${source}: set` } };
  } catch (error) {
    if (!(error instanceof EinvoiceError)) throw error;
    return { check: { check: 'token', status: 'fail', detail: oneLine(error.message), failure: 'token' } };
  }
}

/** When a JWT expires: an error once past, a warning within a week; an opaque token has no date to read. */
function expiryCheck(token: string, now = Date.now()): Check {
  const expires = jwtExpiry(token);
  if (!expires) {
    const detail = isJwt(token) ? 'a JWT without an expiry (exp)' : 'not a JWT: only the service knows its expiry';
    return { check: 'token expiry', status: 'skip', detail };
  }
  const left = expires.getTime() - now;
  const when = expires.toISOString().replace('.000Z', 'Z');
  if (left <= 0) {
    return { check: 'token expiry', status: 'fail', detail: `expired at ${when}`, failure: 'token' };
  }
  const inWords = left < day ? countOf(Math.ceil(left / 3_600_000), 'hour') : countOf(Math.floor(left / day), 'day');
  return {
    check: 'token expiry',
    status: left < expiryWarningMs ? 'warn' : 'ok',
    detail: `expires at ${when} (in ${inWords})`,
  };
}

async function checkService(profile: Profile, timeout: number): Promise<Check[]> {
  const { token, check: tokenCheck } = await readToken(profile, timeout);
  const checks: Check[] = [tokenCheck];
  checks.push(
    token === undefined ? { check: 'token expiry', status: 'skip', detail: 'no token to read' } : expiryCheck(token),
  );
  const url = new URL(profile.baseUrl as string);
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    // As every command does: a token is never sent in the clear to another machine.
    checks.push({
      check: 'service',
      status: 'fail',
      detail: `${url.href} is plain http to another machine: einvoice sends no token there (use https://)`,
      failure: 'service',
    });
    return checks;
  }
  const { probeService } = await import('../../api/service-check.js');
  const probe = await probeService(url.href, token, { timeoutMs: timeout });
  if (!probe.reached) {
    checks.push(
      {
        check: 'service',
        status: 'fail',
        detail: `${probe.url} does not answer: ${oneLine(probe.problem)}`,
        failure: 'service',
      },
      { check: 'clock', status: 'skip', detail: 'no answer to compare with' },
      { check: 'statistics path', status: 'skip', detail: 'no answer' },
      { check: 'token accepted', status: 'skip', detail: 'no answer' },
    );
    return checks;
  }
  checks.push({
    check: 'service',
    status: 'ok',
    detail: probe.tls
      ? `${probe.url} answers over ${probe.tls} in ${probe.elapsedMs} ms`
      : `${probe.url} answers in ${probe.elapsedMs} ms, over plain http: not TLS (a sandbox on this machine)`,
  });
  checks.push(clockCheck(probe.clockSkewMs));
  checks.push(
    probe.statisticsPath
      ? { check: 'statistics path', status: 'ok', detail: `${probe.statisticsPath} answers` }
      : {
          check: 'statistics path',
          status: 'fail',
          detail: 'neither statistics path answers (404): is the base URL the service?',
          failure: 'service',
        },
  );
  checks.push(acceptedCheck(probe.status, token !== undefined));
  return checks;
}

function clockCheck(skewMs: number | undefined): Check {
  if (skewMs === undefined) return { check: 'clock', status: 'skip', detail: 'the service sent no Date header' };
  const seconds = Math.round(Math.abs(skewMs) / 1000);
  const detail =
    seconds === 0
      ? "within a second of the service's (its Date header)"
      : `${seconds} s ${skewMs > 0 ? 'behind' : 'ahead of'} the service's (its Date header)`;
  return { check: 'clock', status: Math.abs(skewMs) > clockWarningMs ? 'warn' : 'ok', detail };
}

function acceptedCheck(status: number, hadToken: boolean): Check {
  if (!hadToken) return { check: 'token accepted', status: 'skip', detail: 'no token to send' };
  if (status >= 200 && status < 300) {
    return { check: 'token accepted', status: 'ok', detail: `the statistics call answered ${status}` };
  }
  if (status === 401 || status === 403) {
    return { check: 'token accepted', status: 'fail', detail: `refused (HTTP ${status})`, failure: 'token' };
  }
  return {
    check: 'token accepted',
    status: 'fail',
    detail: `the statistics call answered HTTP ${status}`,
    failure: 'service',
  };
}

/** The built-in sandbox runs in this process with a token of its own: one statistics call checks it all. */
async function checkEmbeddedSandbox(session: Session): Promise<Check[]> {
  const service = await session.connect();
  const started = Date.now();
  try {
    await service.client.getStatistics();
  } finally {
    await service.close();
  }
  return [
    { check: 'token', status: 'ok', detail: 'made by the built-in sandbox, which runs in this process' },
    { check: 'token expiry', status: 'skip', detail: 'not a JWT' },
    { check: 'service', status: 'ok', detail: 'the built-in sandbox answers over plain http on 127.0.0.1: not TLS' },
    { check: 'clock', status: 'skip', detail: "the built-in sandbox's is this one" },
    { check: 'statistics path', status: 'ok', detail: 'invoice-api/invoices/statistics answers' },
    { check: 'token accepted', status: 'ok', detail: `the statistics call answered in ${Date.now() - started} ms` },
  ];
}

/** A message from outside on one line, without control sequences. */
function oneLine(text: string): string {
  return terminalSafe(text).replace(/\s*\n\s*/g, ' ');
}
