import type { IncomingMessage } from 'node:http';
import type { Reply } from './http.js';

// A tiny router: routes are path patterns such as /invoice-api/invoices/:invoiceNumber/refund, with one handler
// per method. No framework, so the sandbox stays cheap to import.

/** What a handler gets: the request, the path's parameters and a way to read the JSON body. */
export interface SandboxRequest {
  req: IncomingMessage;
  params: Record<string, string>;
  /** Reads the body as JSON: undefined when there is none and it is not `required`. */
  readJson(options?: { required?: boolean }): Promise<unknown>;
}

export type Handler = (request: SandboxRequest) => Promise<Reply>;
export type Method = 'GET' | 'POST';

export interface Route {
  path: string;
  /** Service routes need the merchant token and take injected faults; admin routes need a local caller. */
  scope: 'service' | 'admin';
  methods: Partial<Record<Method, Handler>>;
}

/** The path's segments, percent-decoded; undefined when the path cannot be decoded. */
export function pathSegments(url: string | undefined): string[] | undefined {
  if (!url?.startsWith('/')) return undefined;
  const path = url.split(/[?#]/, 1)[0] ?? '';
  try {
    return path.slice(1).split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/** The route whose pattern matches `segments`, with the values of its `:parameters`. */
export function matchRoute(
  routes: readonly Route[],
  segments: readonly string[],
): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    const pattern = route.path.slice(1).split('/');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, index) => {
      const segment = segments[index] ?? '';
      if (part.startsWith(':')) {
        params[part.slice(1)] = segment;
        return segment !== '';
      }
      return part === segment;
    });
    if (matches) return { route, params };
  }
  return undefined;
}
