// A token that is a JWT says when it expires; any other token is opaque, and only the service can tell.

/** When a JWT expires (its `exp` claim); undefined for a token that is not a JWT or has no expiry. */
export function jwtExpiry(token: string): Date | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]+={0,2}$/.test(part))) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' && Number.isFinite(payload.exp) ? new Date(payload.exp * 1000) : undefined;
  } catch {
    return undefined;
  }
}

/** True when `token` has the shape of a JWT (three base64url parts, the first a JSON header). */
export function isJwt(token: string): boolean {
  const [header] = token.split('.');
  if (token.split('.').length !== 3 || header === undefined) return false;
  try {
    return typeof JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) === 'object';
  } catch {
    return false;
  }
}
