import type { IncomingMessage, ServerResponse } from 'node:http';
import { serviceErrorCodes, type ServiceErrorBody } from '../schemas/service-error.js';
import type { FieldIssue } from '../errors.js';
import { parseJsonExactly } from '../schemas/exact-json.js';

/** What a handler answers: a status and a JSON text written as is. */
export interface Reply {
  status: number;
  json: string;
  headers?: Record<string, string>;
  /** Close the connection after answering (the request body was not read to its end). */
  closeConnection?: boolean;
  /** A body that is not JSON (a page of the dashboard), sent in place of `json`; `headers` give its content-type. */
  body?: Buffer;
  /** Keeps the response open after the headers and hands it over (server-sent events); `json` is not sent. */
  stream?: (res: ServerResponse) => void;
  /** The request changed the service's state (its transaction committed), for the request history. */
  committed?: boolean;
  /** The invoice the request created or acted on, for the request history. */
  invoiceNumber?: string;
}

/** A reply holding `value` as JSON. */
export function jsonReply(status: number, value: unknown): Reply {
  return { status, json: JSON.stringify(value) };
}

/** The sandbox's own code for a request from outside this machine to the admin API. */
export const forbiddenCode = 'FORBIDDEN';

/** An error a handler throws to answer with the shared error body. */
export class SandboxHttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors?: FieldIssue[];
  readonly invoiceNumber?: string;
  readonly headers?: Record<string, string>;
  readonly closeConnection: boolean;

  constructor(
    status: number,
    code: string,
    message: string,
    details: {
      errors?: FieldIssue[];
      invoiceNumber?: string;
      headers?: Record<string, string>;
      closeConnection?: boolean;
    } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.errors = details.errors;
    this.invoiceNumber = details.invoiceNumber;
    this.headers = details.headers;
    this.closeConnection = details.closeConnection ?? false;
  }

  /** The error body: `{status, code, message, errors?, invoiceNumber?}`. */
  toBody(): ServiceErrorBody {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      ...(this.errors ? { errors: this.errors.map(({ path, message }) => ({ field: path, message })) } : {}),
      ...(this.invoiceNumber !== undefined ? { invoiceNumber: this.invoiceNumber } : {}),
    };
  }

  toReply(): Reply {
    return {
      ...jsonReply(this.status, this.toBody()),
      headers: this.headers,
      closeConnection: this.closeConnection,
    };
  }
}

/** A 400 naming every failing field. */
export function validationError(issues: FieldIssue[]): SandboxHttpError {
  const fields = issues.map((issue) => issue.path).join(', ');
  return new SandboxHttpError(400, serviceErrorCodes.validationFailed, `The request is not valid: check ${fields}.`, {
    errors: issues,
  });
}

/** A 404 for an invoice number nobody issued. */
export function invoiceNotFound(invoiceNumber: string): SandboxHttpError {
  return new SandboxHttpError(404, serviceErrorCodes.notFound, `There is no invoice ${invoiceNumber}.`);
}

/** The query of a request's address as plain fields (the last value of a field given twice). */
export function queryOf(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams);
}

/** The largest request body the sandbox reads. */
export const maxBodyBytes = 1024 * 1024;

const tooLarge = () =>
  new SandboxHttpError(
    413,
    serviceErrorCodes.payloadTooLarge,
    `The request body is larger than ${maxBodyBytes} bytes (1 MiB).`,
    { closeConnection: true },
  );

const malformed = (message: string) => new SandboxHttpError(400, serviceErrorCodes.malformedJson, message);

/** True when the request carries a body at all. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** A request's body, read at most once: parsed as JSON by its handler, and hashed for the request history. */
export class RequestBody {
  readonly req: IncomingMessage;
  #bytes: Promise<Buffer> | undefined;
  #read: Buffer | undefined;

  constructor(req: IncomingMessage) {
    this.req = req;
  }

  /** True when the request carries a body at all. */
  get present(): boolean {
    return hasBody(this.req);
  }

  /** The body's bytes (none without a body); 413, reading no further, past `maxBodyBytes`. */
  bytes(): Promise<Buffer> {
    this.#bytes ??= !this.present
      ? Promise.resolve(Buffer.alloc(0))
      : Number(this.req.headers['content-length'] ?? 0) > maxBodyBytes
        ? Promise.reject(tooLarge())
        : readLimited(this.req);
    return this.#bytes.then((bytes) => (this.#read = bytes));
  }

  /** The bytes of a body read whole, if one was. */
  get read(): Buffer | undefined {
    return this.#read;
  }
}

/**
 * Reads the request body as JSON. Without a body it returns undefined, or fails when `required`. A body must be
 * sent as application/json (else 415) and be at most `maxBodyBytes` (else 413, read no further).
 */
export async function readJsonBody(body: RequestBody, options: { required: boolean }): Promise<unknown> {
  const { req } = body;
  if (!body.present) {
    if (options.required) throw malformed('The request has no body; send a JSON object.');
    return undefined;
  }
  if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) throw tooLarge();
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new SandboxHttpError(
      415,
      serviceErrorCodes.unsupportedMediaType,
      `Send the body as JSON with the header Content-Type: application/json (got ${mediaType ? `'${mediaType}'` : 'none'}).`,
    );
  }
  const bytes = await body.bytes();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw malformed('The request body is not valid UTF-8 text.');
  }
  if (text.trim() === '') {
    if (options.required) throw malformed('The request body is empty; send a JSON object.');
    return undefined;
  }
  try {
    return parseJsonExactly(text);
  } catch (error) {
    throw malformed(`The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Collects the body, stopping as soon as it passes the limit. */
function readLimited(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanUp = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        cleanUp();
        req.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanUp();
      resolve(Buffer.concat(chunks));
    };
    const onError = () => {
      cleanUp();
      reject(new ClientGoneError());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}

/** The client went away while sending its request: there is nobody to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection before sending its whole request.');
  }
}
