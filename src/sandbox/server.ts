import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { FaultKind } from '../schemas/sandbox-admin.js';
import { isLoopback } from '../schemas/loopback.js';
import { serviceErrorCodes } from '../schemas/service-error.js';
import type { SandboxApp } from './app.js';
import { authorizationProblem } from './auth.js';
import { sandboxNow } from './clock.js';
import { ClientGoneError, RequestBody, SandboxHttpError, forbiddenCode, readJsonBody, type Reply } from './http.js';
import { untrustedRequestProblem } from './request-origin.js';
import { requestHistory, type Ending, type Trace } from './request-history.js';
import { matchRoute, pathSegments, type Method, type Route } from './router.js';

/** What the sandbox reports as it runs: each request as it ended, and each unexpected failure. */
export type SandboxLogEvent =
  | { type: 'request'; method: string; path: string; status: number | 'dropped' | 'hung'; ms: number }
  | { type: 'error'; error: unknown };

/** How long a connection answered with 413 keeps draining the client's body before it is closed. */
const lingerMs = 1000;

/** The sandbox's own code for a request that is not HTTP the server can read. */
const badRequestCode = 'BAD_REQUEST';

/**
 * What a request comes to: a reply, a dropped connection (an injected fault, or a client that left), or no answer
 * at all until the client gave up (an injected hang).
 */
type Outcome = { reply: Reply } | { drop: true } | { hung: true };

/** Keeps a request's connection open, unanswered, until the client closes it or the sandbox stops. */
type Hold = (req: IncomingMessage) => Promise<void>;

/** The HTTP server and how to stop it: no new connections, idle and draining ones closed, busy ones finished. */
export interface SandboxServer {
  server: Server;
  close(): Promise<void>;
}

/** The HTTP server of the sandbox: routes, checks, injected faults and error bodies. It never throws. */
export function createSandboxServer(
  app: SandboxApp,
  routes: Route[],
  log: (event: SandboxLogEvent) => void,
): SandboxServer {
  const lingering = new Set<Socket>();
  const held = new Set<Socket>();
  /** Requests being handled: the database closes only once each has ended in the history. */
  const handling = new Set<Promise<void>>();
  const report = (event: SandboxLogEvent) => {
    try {
      log(event);
    } catch {
      // A failing logger must not take the server down.
    }
  };
  const history = requestHistory(app.store, (error) => report({ type: 'error', error }));
  let closing: Promise<void> | undefined;
  const hold: Hold = (req) =>
    new Promise<void>((resolve) => {
      const socket = req.socket;
      if (socket.closed) return resolve();
      held.add(socket);
      socket.once('close', () => {
        held.delete(socket);
        resolve();
      });
      // A request held once the sandbox is stopping is let go at once.
      if (closing) socket.destroy();
    });
  const server = createServer((req, res) => {
    const started = performance.now();
    const trace: Trace = { body: new RequestBody(req), committed: false };
    const entry = history.received(req);
    const handled = handle(app, routes, req, trace, hold, report)
      .then((outcome) => {
        const ending: Ending =
          'reply' in outcome
            ? { ended: 'answered', status: outcome.reply.status }
            : { ended: 'drop' in outcome ? 'dropped' : 'hung' };
        const status = ending.ended === 'answered' ? ending.status : ending.ended;
        const ms = performance.now() - started;
        report({ type: 'request', method: req.method ?? '?', path: req.url ?? '?', status, ms });
        history.ended(entry, trace, ending);
        if ('drop' in outcome) req.socket.destroy();
        else if ('reply' in outcome) send(req, res, outcome.reply, lingering);
      })
      .catch(() => void req.socket.destroy())
      .finally(() => handling.delete(handled));
    handling.add(handled);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerUnreadable(error, socket));
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve(Promise.all(handling).then(() => history.close())));
      server.closeIdleConnections();
      // A connection still draining a refused body has nothing more to say, and a held one never will.
      lingering.forEach((socket) => socket.destroy());
      held.forEach((socket) => socket.destroy());
    }));
  return { server, close };
}

async function handle(
  app: SandboxApp,
  routes: Route[],
  req: IncomingMessage,
  trace: Trace,
  hold: Hold,
  log: (event: SandboxLogEvent) => void,
): Promise<Outcome> {
  try {
    return await dispatch(app, routes, req, trace, hold);
  } catch (error) {
    if (error instanceof SandboxHttpError) return { reply: error.toReply() };
    if (error instanceof ClientGoneError) return { drop: true };
    log({ type: 'error', error });
    return { reply: internalError().toReply() };
  }
}

async function dispatch(
  app: SandboxApp,
  routes: Route[],
  req: IncomingMessage,
  trace: Trace,
  hold: Hold,
): Promise<Outcome> {
  const refusal = untrustedRequestProblem(req, { address: req.socket.localAddress, port: req.socket.localPort });
  if (refusal) {
    const code = refusal.status === 415 ? serviceErrorCodes.unsupportedMediaType : forbiddenCode;
    throw new SandboxHttpError(refusal.status, code, refusal.message, { closeConnection: true });
  }
  const segments = pathSegments(req.url);
  if (segments?.[0] === '__sandbox' && !isLoopback(req.socket.remoteAddress)) {
    throw new SandboxHttpError(403, forbiddenCode, 'The sandbox admin API answers only requests from this machine.');
  }
  const match = segments && matchRoute(routes, segments);
  if (!match) {
    const path = (req.url ?? '').split('?', 1)[0]?.slice(0, 200);
    throw new SandboxHttpError(404, serviceErrorCodes.notFound, `The sandbox has no route ${path}.`);
  }
  const { route, params } = match;
  const method = req.method as Method;
  const handler = Object.hasOwn(route.methods, method) ? route.methods[method] : undefined;
  if (!handler) {
    const allowed = Object.keys(route.methods).join(', ');
    throw new SandboxHttpError(405, serviceErrorCodes.methodNotAllowed, `Use ${allowed} on ${route.path}.`, {
      headers: { allow: allowed },
    });
  }
  if (route.scope === 'service') {
    await authenticate(app, req);
    trace.invoiceNumber = params.invoiceNumber;
    // Read whole for the history, whatever comes of the request; its handler parses the same bytes.
    await trace.body.bytes().catch(() => undefined);
  }
  app.tick();
  // Faults come after the token check (an unauthenticated caller never sees them) and before the operation.
  const fault = route.scope === 'service' ? await injectFault(app, trace) : undefined;
  if (fault === 'drop') return { drop: true };
  if (fault === 'hang') {
    await hold(req);
    return { hung: true };
  }
  const reply = await handler({
    req,
    params,
    readJson: (options) => readJsonBody(trace.body, { required: options?.required ?? false }),
  });
  trace.committed = reply.committed ?? false;
  trace.invoiceNumber = reply.invoiceNumber ?? trace.invoiceNumber;
  // The operation has committed; the client never learns it did.
  if (fault === 'drop-after-commit' && reply.status < 400) return { drop: true };
  return { reply };
}

async function authenticate(app: SandboxApp, req: IncomingMessage): Promise<void> {
  const { tokens, now } = app.store.read((state) => ({ tokens: state.tokens(), now: sandboxNow(state.counters()) }));
  const problem = authorizationProblem(req.headers.authorization, app.token, tokens, now);
  if (problem) {
    throw new SandboxHttpError(401, serviceErrorCodes.unauthorized, problem, {
      headers: { 'www-authenticate': 'Bearer' },
    });
  }
}

/** Waits the configured latency, then draws this request's fault; faults answered at once are thrown. */
async function injectFault(app: SandboxApp, trace: Trace): Promise<FaultKind | undefined> {
  const { latencyMs } = app.faults.settings;
  if (latencyMs > 0) await delay(latencyMs);
  const fault = app.faults.draw();
  trace.fault = fault;
  const retryLater = { headers: { 'retry-after': '1' } };
  switch (fault) {
    case '500':
      throw internalError();
    case '503':
      throw new SandboxHttpError(
        503,
        serviceErrorCodes.unavailable,
        'The service is unavailable (injected fault).',
        retryLater,
      );
    case '429':
      throw new SandboxHttpError(429, serviceErrorCodes.rateLimited, 'Too many requests (injected fault).', retryLater);
    default:
      return fault;
  }
}

function internalError(): SandboxHttpError {
  return new SandboxHttpError(500, serviceErrorCodes.internal, 'The service failed unexpectedly.');
}

function send(req: IncomingMessage, res: ServerResponse, reply: Reply, lingering: Set<Socket>): void {
  if (res.destroyed || req.socket.destroyed) return;
  if (reply.stream) {
    res.writeHead(reply.status, reply.headers);
    reply.stream(res);
    return;
  }
  const body = reply.body ?? reply.json;
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...reply.headers,
    ...(reply.closeConnection ? { connection: 'close' } : {}),
  });
  if (reply.closeConnection) closeAfterAnswer(req, lingering);
  res.end(body);
}

/**
 * Closes a connection whose request body was not read to its end. Closing a socket with unread bytes makes the
 * kernel send RST, which can wipe our answer before the client reads it; so we half-close, throw away what the
 * client is still sending for a moment, and only then destroy the socket.
 */
function closeAfterAnswer(req: IncomingMessage, lingering: Set<Socket>): void {
  const socket = req.socket;
  req.resume();
  lingering.add(socket);
  socket.once('close', () => lingering.delete(socket));
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), lingerMs).unref();
  };
}

/** Answers a request the HTTP parser could not read (bad syntax, headers too large). */
function answerUnreadable(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify(
    new SandboxHttpError(status, badRequestCode, 'The request is not HTTP/1.1 the sandbox can read.').toBody(),
  );
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `connection: close\r\n\r\n${body}`,
  );
}
