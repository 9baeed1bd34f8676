import type { ClientRequest } from 'node:http';
import type { HandlerFunction, Progress, Request } from 'got';
import { ServiceUnavailableError } from '../errors.js';

// Every answer of the service is read whole into memory, so it is read up to a limit: a larger or endless body (a
// proxy's error page streaming forever, a wrong address) ends the request with a clear error instead of
// "RangeError: Invalid string length" or gigabytes of memory. No answer of the service comes near it.

/** The most of a response body the client reads: 1 MiB. */
export const maxResponseBytes = 1024 * 1024;

/** The service answered with a body past the limit; the request may have taken effect (exit 5). */
export class ResponseTooLargeError extends ServiceUnavailableError {
  constructor(target: string) {
    super(
      `The service at ${target} sent an unexpected response: a body larger than 1 MiB, which einvoice stops reading.`,
      {
        mayHaveReachedService: true,
        hint: 'Check the base URL of the environment (einvoice config show): it may not be the e-invoice service.',
      },
    );
  }
}

/**
 * A got handler that stops reading a response once its body passes `maxResponseBytes`. A stream (a create, a
 * refund) is destroyed with a ResponseTooLargeError, which got hands back as the cause of its error; a promise
 * (statistics) has its connection closed and rejects with the ResponseTooLargeError.
 */
export const limitResponseSize: HandlerFunction = (options, next) => {
  const target = () => (options.url instanceof URL ? options.url.origin : 'the service');
  const tooLarge = (progress: Progress) => progress.transferred > maxResponseBytes;
  if (options.isStream) {
    const stream = next(options) as unknown as Request;
    stream.on('downloadProgress', (progress) => {
      if (tooLarge(progress) && !stream.destroyed) stream.destroy(new ResponseTooLargeError(target()));
    });
    return stream as unknown as ReturnType<typeof next>;
  }
  const result = next(options);
  const promise = result as unknown as Promise<unknown> & {
    on(event: 'request', listener: (request: ClientRequest) => void): void;
    on(event: 'downloadProgress', listener: (progress: Progress) => void): void;
  };
  // got's promise gives no way to end its request with an error of ours: the connection is closed instead, and so
  // is that of any retry, and the promise then rejects with the ResponseTooLargeError whatever got made of it.
  let stopped = false;
  let current: ClientRequest | undefined;
  promise.on('request', (request) => {
    current = request;
    if (stopped) request.destroy();
  });
  promise.on('downloadProgress', (progress) => {
    if (tooLarge(progress) && !stopped) {
      stopped = true;
      current?.destroy();
    }
  });
  // got copies the request's methods (on, json, ...) onto the promise a handler returns.
  return (async () => {
    try {
      return await promise;
    } catch (error) {
      throw stopped ? new ResponseTooLargeError(target()) : error;
    }
  })() as unknown as typeof result;
};
