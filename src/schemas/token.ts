// What a bearer token may hold: it goes into the Authorization header as it is, so one line of printable ASCII
// without spaces (RFC 6750's b64token and the opaque tokens services issue all fit).

/** Why `token` cannot be sent in a header, worded to follow "it": "contains a line break"; undefined when it can. */
export function tokenProblem(token: string): string | undefined {
  if (/[\r\n]/.test(token)) return `has ${token.split(/\r\n|\r|\n/).length} lines (it contains a line break)`;
  // eslint-disable-next-line no-control-regex -- control characters are what this rule finds
  const control = /[\u0000-\u001f\u007f]/.exec(token);
  if (control) {
    return `contains a control character (U+${control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()})`;
  }
  if (/\s/.test(token)) return 'contains a space';
  if (/[^\u0021-\u007e]/.test(token)) return 'contains a character that is not ASCII';
  return undefined;
}
