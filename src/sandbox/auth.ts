import { randomBytes, timingSafeEqual } from 'node:crypto';
import { validationError } from './http.js';
import type { IssuedToken } from './state.js';
import type { StateDraft } from './store.js';

/** A new random merchant token. */
export function newToken(): string {
  return `sbx_${randomBytes(24).toString('hex')}`;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Checks an `Authorization: Bearer <token>` header against the main token (which never expires) and the tokens
 * issued through the admin API (which expire by sandbox time). Returns why it fails, or undefined when it passes.
 */
export function authorizationProblem(
  header: string | undefined,
  mainToken: string,
  issuedTokens: IssuedToken[],
  now: Date,
): string | undefined {
  if (!header) return 'The Authorization header is missing; send Authorization: Bearer <token>.';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return 'The Authorization header must be Bearer <token>.';
  const token = match[1];
  if (sameText(token, mainToken)) return undefined;
  const issued = issuedTokens.find((candidate) => sameText(candidate.token, token));
  if (!issued) return 'The token is not valid.';
  if (Date.parse(issued.expiresAt) <= now.getTime()) return `The token expired at ${issued.expiresAt}.`;
  return undefined;
}

/** Issues a token valid for `ttlSeconds` of sandbox time. */
export function issueToken(state: StateDraft, ttlSeconds: number, now: Date): { token: string; expiresAt: string } {
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  if (Number.isNaN(expiresAt.getTime())) {
    throw validationError([{ path: 'ttlSeconds', message: 'is past the last date the sandbox can hold' }]);
  }
  const issued = { token: newToken(), expiresAt: expiresAt.toISOString() };
  // Tokens that expired more than a day ago are dropped, so the state does not grow without end.
  const dayAgo = now.getTime() - 86_400_000;
  for (const token of state.tokens()) if (Date.parse(token.expiresAt) <= dayAgo) state.removeToken(token.token);
  state.addToken(issued);
  return issued;
}
