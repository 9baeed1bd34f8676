import { toJson } from './format.js';

/** A request as `--dry-run` shows it: the Authorization header is always redacted. */
export interface RequestPreview {
  method: string;
  url: string;
  body: unknown;
}

/** The request as text (method and URL, headers, body) or, with --json, as one JSON object. */
export function renderRequestPreview(request: RequestPreview, json: boolean): string {
  const headers = { Authorization: 'Bearer ***', 'Content-Type': 'application/json' };
  if (json) return toJson({ method: request.method, url: request.url, headers, body: request.body });
  return [
    `${request.method} ${request.url}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    toJson(request.body),
  ].join('\n');
}

/** The address shown for the embedded sandbox, which has no fixed URL until it starts. */
export const embeddedSandboxLabel = 'http://127.0.0.1:<embedded sandbox>';
