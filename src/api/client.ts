import got, { AbortError, HTTPError, RequestError, type Got, type Response } from 'got';
import { defaultMaxRetryAfterSeconds } from '../context.js';
import { AuthError, EinvoiceError, ServiceRejectedError, ServiceUnavailableError, UsageError } from '../errors.js';
import { isLoopback } from '../schemas/loopback.js';
import type { Invoice, InvoiceKind } from '../schemas/invoice.js';
import { checkedInvoiceNumber, parseCreatedInvoiceNumber } from './invoice-number.js';
import { refundAnswerSchema, type Refund } from '../schemas/refund.js';
import { sandboxStateHeader, sandboxStateOf } from '../schemas/sandbox-admin.js';
import { statisticsSchema, type Statistics } from '../schemas/statistics.js';
import { tokenProblem } from '../schemas/token.js';
import { validate } from '../schemas/validate.js';
import { version } from '../version.js';
import type { ZodType } from 'zod';
import { servicePaths } from './paths.js';
import { limitResponseSize } from './response-limit.js';
import { htmlPage, toServiceError, withoutToken, type AttemptLimits } from './service-errors.js';
import { describeRequest, describeResponse, redactToken } from './verbose-log.js';

export { servicePaths };

export interface ClientOptions {
  /** Base URL of the service, e.g. https://staging.example.com. */
  baseUrl: string;
  /** The bearer token, or a function that reads it when the first request is sent. */
  token: string | (() => Promise<string>);
  /** Name of the environment, used in error messages. */
  environment?: string;
  /** Time-out of one request in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** How often a GET is retried on network errors, 429 and 5xx (default 2). */
  getRetries?: number;
  /** The longest `Retry-After` a GET waits for before retrying (default 60 s); a longer one fails the request. */
  maxRetryAfterMs?: number;
  /** Receives one line per request and response, with secrets redacted (for --verbose). */
  log?: (line: string) => void;
  /** How to set the token, shown with a 401. */
  tokenHint?: string;
}

/** Options of one operation. */
export interface RequestOptions {
  /** Aborts the request at once (a Ctrl-C); the error says whether it had reached the service. */
  signal?: AbortSignal;
}

/** The service's operations, one typed function each. */
export interface InvoiceClient {
  readonly baseUrl: string;
  getStatistics(options?: RequestOptions): Promise<Statistics>;
  /** Refunds a paid invoice; resolves once the service said it did (a sandbox names its state). */
  refundInvoice(invoiceNumber: string, refund: Refund, options?: RequestOptions): Promise<AnswerFacts>;
  /** Creates an invoice and returns its number exactly as the service wrote it. */
  createInvoice(
    kind: InvoiceKind,
    invoice: Invoice,
    options?: RequestOptions,
  ): Promise<{ invoiceNumber: string } & AnswerFacts>;
}

/** What a create or refund answer says beyond the interface: a sandbox names its state (`sandboxStateHeader`). */
export interface AnswerFacts {
  sandboxState?: string;
}

/** The client the CLI works with: also creates an invoice the CLI checked and keeps as JSON text (a bulk run's). */
export interface ServiceClient extends InvoiceClient {
  createInvoiceJson(
    kind: InvoiceKind,
    invoiceJson: string,
    options?: RequestOptions,
  ): Promise<{ invoiceNumber: string } & AnswerFacts>;
  /** Reads the token now (a tokenCommand runs), so that a token that cannot be sent stops a run before it starts. */
  readToken(): Promise<void>;
}

const defaultMaxRetryAfterMs = defaultMaxRetryAfterSeconds * 1000;

/** Creates a client for one environment of the service. */
export function createClient(options: ClientOptions): InvoiceClient {
  return createServiceClient(options);
}

/** Creates the CLI's client for one environment of the service. */
export function createServiceClient(options: ClientOptions): ServiceClient {
  const baseUrl = checkedBaseUrl(options.baseUrl);
  const readToken = typeof options.token === 'string' ? () => Promise.resolve(options.token as string) : options.token;
  let tokenPromise: Promise<string> | undefined;
  const token = () => (tokenPromise ??= readToken().then(sendableToken));
  const environment = options.environment ?? 'selected';
  const { http, post, logResponse, sentToken } = createHttp(baseUrl, options, token);
  const limits: AttemptLimits = {
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? defaultMaxRetryAfterMs,
  };

  const send = async <T>(request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      throw toClientError(error, environment, options.tokenHint, limits);
    }
  };

  /** The operation, whose errors never carry the token, whichever step (the request, reading the answer) threw. */
  const guarded =
    <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await operation(...args);
      } catch (error) {
        throw withoutToken(error, sentToken());
      }
    };

  const createInvoiceJson = guarded(async (kind: InvoiceKind, invoiceJson: string, request: RequestOptions = {}) => {
    const response = await send(() =>
      postJson(post, servicePaths.createInvoice(kind), invoiceJson, logResponse, request.signal),
    );
    if (isRedirect(response)) throw notFollowed(response, `Not created by the service`, baseUrl);
    const invoiceNumber = parseCreatedInvoiceNumber(response.body);
    if (invoiceNumber === undefined) {
      // A success status without an invoice number: the service may well have created it.
      throw unexpectedResponse(
        `the body of a created invoice is not an invoice number: ${preview(response.body)}`,
        response,
        true,
      );
    }
    return { invoiceNumber, ...answerFacts(response) };
  });

  return {
    baseUrl,
    getStatistics: guarded(async (request: RequestOptions = {}) => {
      const response = await send(async () => {
        try {
          return await http.get(servicePaths.statistics, { signal: request.signal });
        } catch (error) {
          if (error instanceof HTTPError && error.response.statusCode === 404) {
            return await http.get(servicePaths.statisticsFallback, { signal: request.signal });
          }
          throw error;
        }
      });
      if (isRedirect(response)) throw notFollowed(response, 'The statistics were not read', baseUrl);
      return parseBody(response, statisticsSchema, 'the body of the statistics');
    }),

    refundInvoice: guarded(async (invoiceNumber: string, refund: Refund, request: RequestOptions = {}) => {
      const path = servicePaths.refund(checkedInvoiceNumber(invoiceNumber));
      const response = await send(() => postJson(post, path, JSON.stringify(refund), logResponse, request.signal));
      if (isRedirect(response)) throw notFollowed(response, `Not refunded by the service`, baseUrl);
      // Only the documented answer (200, a JSON object) says the refund is done; any other success status or body
      // (an empty 201, a login page) leaves its outcome unknown rather than reporting it done.
      if (response.statusCode !== 200) {
        throw unexpectedResponse(
          `the refund was answered HTTP ${response.statusCode}, not the documented 200`,
          response,
          true,
        );
      }
      parseBody(response, refundAnswerSchema, 'the answer to the refund', true);
      return answerFacts(response);
    }),

    createInvoice: (kind, invoice, request) => createInvoiceJson(kind, JSON.stringify(invoice), request),
    createInvoiceJson,
    async readToken() {
      await send(token);
    },
  };
}

const defaultTimeoutMs = 30_000;

/** The sandbox's state an answer names, if it names one. */
function answerFacts(response: Pick<Response, 'headers'>): AnswerFacts {
  const sandboxState = sandboxStateOf(response.headers[sandboxStateHeader]);
  return sandboxState === undefined ? {} : { sandboxState };
}

/** The token as it goes into the header; one that cannot be sent there is refused before any request. */
function sendableToken(token: string): string {
  const problem = tokenProblem(token);
  if (problem) {
    throw new AuthError(`The token cannot be sent: it ${problem}; nothing was sent.`, {
      hint: 'A token is one line of printable characters, without spaces.',
    });
  }
  return token;
}

/** The got instance of one service, what logs a response (for --verbose), and the token once sent. */
interface Http {
  http: Got;
  /** The same, for a create or refund: a JSON body, no redirect followed, no retry, any status answered. */
  post: Got;
  logResponse(response: Response): void;
  sentToken(): string | undefined;
}

function createHttp(baseUrl: string, options: ClientOptions, token: () => Promise<string>): Http {
  // The token as sent, once read: every line logged is redacted of it.
  let sentToken: string | undefined;
  const log = options.log && ((line: string) => options.log?.(redactToken(line, sentToken)));
  const started = new WeakMap<object, number>();
  const serviceOrigin = new URL(baseUrl).origin;
  const logResponse = (response: Response) => {
    if (!log) return;
    const since = started.get(response.request.options);
    const took = since === undefined ? '' : ` (${Date.now() - since} ms)`;
    log(
      `< ${response.statusCode} ${response.statusMessage ?? ''}${took} ${response.request.options.method} ${response.url}`,
    );
    log(describeResponse(response));
    if (isRedirect(response)) log(`< (redirect not followed: to ${redirectTarget(response) ?? 'no Location'})`);
  };
  const http = got.extend({
    prefixUrl: baseUrl,
    headers: { 'user-agent': `einvoice/${version}`, accept: 'application/json' },
    responseType: 'text',
    handlers: [limitResponseSize],
    timeout: { request: options.timeoutMs ?? defaultTimeoutMs },
    // A read may follow a redirect within the service's origin only; a create or refund follows none (postJson).
    followRedirect: (response) => sameOrigin(redirectTarget(response), serviceOrigin),
    retry: {
      limit: options.getRetries ?? 2,
      maxRetryAfter: options.maxRetryAfterMs ?? defaultMaxRetryAfterMs,
      methods: ['GET'],
      statusCodes: [408, 429, 500, 502, 503, 504],
      backoffLimit: 10_000,
      noise: 100,
    },
    hooks: {
      beforeRequest: [
        async (request) => {
          // This hook runs again for each redirect: got has dropped the header for another origin, keep it dropped.
          if (new URL(String(request.url)).origin === serviceOrigin) {
            sentToken = await token();
            request.headers.authorization = `Bearer ${sentToken}`;
          }
          started.set(request, Date.now());
          log?.(describeRequest(request));
        },
      ],
      beforeRedirect: [
        (_options, response) => {
          log?.(
            `< ${response.statusCode} ${response.statusMessage ?? ''} ${response.request.options.method} ${response.url}`,
          );
          log?.(`${describeResponse(response)}\n< (redirect followed: same origin)`);
        },
      ],
      beforeRetry: [
        (error, retryCount) => {
          log?.(`retry ${retryCount} after ${error.response ? `HTTP ${error.response.statusCode}` : error.code}`);
        },
      ],
      afterResponse: [
        (response) => {
          logResponse(response);
          return response;
        },
      ],
    },
  });
  // What every create and refund asks for, set once: got copies an instance's options for each request, and merging
  // a request's own options is what costs.
  const post = http.extend({
    headers: { 'content-type': 'application/json' },
    throwHttpErrors: false,
    followRedirect: false,
    retry: { limit: 0 },
  });
  return { http, post, logResponse, sentToken: () => sentToken };
}

/**
 * POSTs a JSON body through got's stream interface and resolves with the response, its text as `body`. A bulk run
 * sends thousands of these, and the promise interface adds a third to the CPU time of each. Answers as that
 * interface does: a status other than 2xx rejects with got's HTTPError, the body included; no retry.
 */
function postJson(
  post: Got,
  path: string,
  body: string,
  logResponse: (response: Response) => void,
  signal: AbortSignal | undefined,
) {
  return new Promise<Response<string>>((resolve, reject) => {
    const stream = post.stream.post(path, signal ? { body, signal } : { body });
    let response: Response<string> | undefined;
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (received: Response<string>) => (response = received));
    stream.on('data', (chunk: string) => (text += chunk));
    stream.on('error', reject);
    stream.on('end', () => {
      if (!response) return reject(new Error(`No response to POST ${path}.`));
      response.body = text;
      // The promise interface logs through the afterResponse hook, which got does not run for streams.
      logResponse(response);
      // A redirect is resolved for the caller to refuse by name; any other status but 2xx is got's HTTPError.
      const status = response.statusCode;
      if ((status >= 200 && status <= 299) || isRedirect(response)) resolve(response);
      else reject(new HTTPError(response));
    });
  });
}

/** True for any 3xx answer: one einvoice did not follow (a create or refund, or a read sent to another origin). */
function isRedirect(response: Response): boolean {
  return response.statusCode >= 300 && response.statusCode <= 399;
}

/** Where a redirect points, resolved against the request's URL; undefined without a readable Location. */
function redirectTarget(response: Pick<Response, 'headers' | 'url'>): string | undefined {
  const location = response.headers.location;
  if (!location) return undefined;
  try {
    return new URL(location, response.url).href;
  } catch {
    return location;
  }
}

function sameOrigin(target: string | undefined, origin: string): boolean {
  if (target === undefined) return false;
  try {
    return new URL(target).origin === origin;
  } catch {
    return false;
  }
}

/**
 * A redirect einvoice did not follow: the service at the configured address did not do the request, and nothing was
 * sent where it points (a create's customer data must not go to an address the merchant never chose).
 */
function notFollowed(response: Response, outcome: string, baseUrl: string): ServiceRejectedError {
  const target = redirectTarget(response);
  const shown = target === undefined ? 'no Location' : target.length > 200 ? `${target.slice(0, 197)}...` : target;
  const status = `HTTP ${response.statusCode}${response.statusMessage ? ` ${response.statusMessage}` : ''}`;
  return new ServiceRejectedError(
    `${outcome}: it answered ${status}, a redirect to ${shown}, which einvoice does not follow here; nothing was ` +
      `sent there, and nothing was done at ${baseUrl}.`,
    {
      status: response.statusCode,
      hint: 'Check the base URL of the environment (einvoice config show): the service answers there itself, without a redirect.',
    },
  );
}

function checkedBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`The base URL "${baseUrl}" is not a URL.`, {
      hint: 'Use a full URL such as https://staging.example.com.',
    });
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new UsageError(`Refusing to send a token over plain http to ${url.host}.`, {
      hint: 'Use an https:// base URL; plain http is allowed only for a service on this machine (127.0.0.1, localhost).',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`The base URL "${baseUrl}" must start with https://.`);
  }
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/** The body parsed by `schema`; `mayHaveTakenEffect` when the request changes state (a refund), not for a read. */
function parseBody<T>(response: Response<string>, schema: ZodType<T>, what: string, mayHaveTakenEffect = false): T {
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    throw unexpectedResponse(`${what} is not JSON: ${preview(response.body)}`, response, mayHaveTakenEffect);
  }
  const result = validate(schema, json);
  if (!result.success) {
    const first = result.issues[0];
    throw unexpectedResponse(
      `${what} does not have the documented shape (${first?.path || 'the body'}: ${first?.message})`,
      response,
      mayHaveTakenEffect,
    );
  }
  return result.data;
}

/** A success status whose body is not the answer the operation documents; an HTML page is not the service's. */
function unexpectedResponse(detail: string, response: Response<string>, mayHaveTakenEffect: boolean) {
  const page = htmlPage(response.headers['content-type'], response.body);
  return new ServiceUnavailableError(`The service sent an unexpected response: ${detail}.`, {
    mayHaveReachedService: mayHaveTakenEffect,
    status: response.statusCode,
    serviceDown: page ? `the answer is an HTML page (HTTP ${response.statusCode}), not the service's JSON` : undefined,
    hint: page
      ? 'Check the base URL of the environment (einvoice config show): a login page or a proxy answers there.'
      : undefined,
  });
}

function preview(body: string): string {
  const oneLine = body.replace(/\s+/g, ' ').trim();
  return oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine || '(empty)';
}

function toClientError(
  error: unknown,
  environment: string,
  tokenHint: string | undefined,
  limits: AttemptLimits,
): unknown {
  if (error instanceof EinvoiceError) return error;
  // got wraps what a hook throws (reading the token failed): that error, not a network failure, is what happened.
  // got 16 also puts an abort's reason (a Ctrl-C) as the cause of its AbortError: that one is a failure of the
  // request, which says whether the request had reached the service.
  if (error instanceof RequestError && !(error instanceof AbortError) && error.cause instanceof EinvoiceError) {
    return error.cause;
  }
  if (error instanceof HTTPError && error.response.statusCode === 401) {
    return new AuthError(
      `The ${environment} environment rejected the token (401 Unauthorized): it is missing, wrong or expired.`,
      {
        hint: tokenHint,
      },
    );
  }
  if (error instanceof RequestError) return toServiceError(error, limits);
  return error;
}
