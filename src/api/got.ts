// got, as every module of einvoice loads it: `npm run layers` refuses any other import of got's code.
//
// got's type checker, @sindresorhus/is, makes two Intl.ListFormat objects as it loads, for the wording of its
// assertion messages. The first Intl object a process makes loads ICU's locale data, about 20 ms: a sixth of every
// command that talks to the service, spent on messages that show only when got is given a wrong option. einvoice
// cannot change that package's code, so while got loads, Intl.ListFormat makes a stand-in that builds the real
// formatter the first time a message needs it; the real constructor is back before got is used. `npm run bench`
// shows the start-up figures; test/api/got.test.ts checks that loading got makes no real formatter and that the
// messages still read the same, and test/e2e/startup.test.ts that the built CLI's `stats` makes none. It depends on
// the stand-in being in place before got's modules run: true of the CLI's bundle and of plain ES modules, not
// promised in the library's bundle (dist/lib.js), where esbuild may order got's modules first, as got and its checker
// declare no side effects.
import { restoreListFormat } from './list-format-deferral.js';
import got, { AbortError, HTTPError, RequestError, TimeoutError } from 'got';

restoreListFormat();

export default got;
export { AbortError, HTTPError, RequestError, TimeoutError };
export type { Got, HandlerFunction, Progress, Request, Response } from 'got';
