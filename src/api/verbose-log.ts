import type { Response } from 'got';

// What --verbose shows of each exchange with the service: the request and the response, each with its headers and
// its body. The Authorization header is always redacted, and the token wherever else it appears; a long body is cut
// (answers are bounded anyway: response-limit.ts).

/** The most of a body --verbose prints. */
const shownBodyChars = 4096;

const headerLines = (prefix: string, headers: Record<string, unknown>) =>
  Object.entries(headers)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) =>
      name.toLowerCase() === 'authorization'
        ? `${prefix} ${name}: *** (redacted)`
        : `${prefix} ${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`,
    );

const bodyLines = (prefix: string, body: string) => {
  if (body === '') return [];
  const shown =
    body.length > shownBodyChars
      ? `${body.slice(0, shownBodyChars)} ... (${body.length - shownBodyChars} more characters)`
      : body;
  return [prefix, ...shown.split('\n').map((line) => `${prefix} ${line}`)];
};

/** The request as --verbose prints it: method and URL, headers, body. */
export function describeRequest(options: {
  method: string;
  url?: unknown;
  headers: Record<string, unknown>;
  body?: unknown;
  json?: unknown;
}): string {
  const body =
    typeof options.body === 'string' ? options.body : options.json !== undefined ? JSON.stringify(options.json) : '';
  return [
    `> ${options.method} ${String(options.url)}`,
    ...headerLines('>', options.headers),
    ...bodyLines('>', body),
  ].join('\n');
}

/** The response as --verbose prints it after its status line: headers, body. */
export function describeResponse(response: Pick<Response, 'headers'> & { body?: unknown }): string {
  const body = typeof response.body === 'string' ? response.body : '';
  return [...headerLines('<', response.headers), ...bodyLines('<', body)].join('\n');
}

/** A token at least this long is replaced wherever it stands: ordinary text does not hold it by chance. */
const tokenFoundAnywhere = 8;

/**
 * `line` with every occurrence of `token` replaced, also as JSON writes it: a service or proxy that echoes the
 * Authorization header back in a body must not put the token into a log a merchant pastes. A shorter token is
 * replaced only where it can be one, apart from letters and digits, so a one-letter token leaves words whole.
 */
export function redactToken(line: string, token: string | undefined): string {
  if (!token) return line;
  const json = JSON.stringify(token).slice(1, -1);
  // JSON may also write a slash escaped.
  const forms = new Set([token, json, json.replaceAll('/', '\\/'), encodeURIComponent(token)]);
  let redacted = line;
  for (const form of forms) {
    if (form.length >= tokenFoundAnywhere) redacted = redacted.split(form).join('***');
    else redacted = redacted.replace(apart(form), '***');
  }
  return redacted;
}

/** `text` where it stands apart from letters and digits, as a pattern (the `u` flag escapes only syntax characters). */
function apart(text: string): RegExp {
  const escaped = text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu');
}
