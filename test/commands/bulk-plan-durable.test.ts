import { afterEach, expect, it, vi } from 'vitest';
import { JournalWriter } from '../../src/bulk/journal.js';
import { sendJson, serversClosedAfterEach } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { journalEntries, records, writeNdjson } from '../bulk/helpers.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';

// A run's plan (every record's `planned` entry, with its body) is on the disk before its first request leaves, so
// a crash at any point after it leaves a journal a rerun resumes from. Only records with a businessReference here:
// the durable write each record without one waits for would make the plan durable as a side effect.

const serve = serversClosedAfterEach();
afterEach(() => {
  vi.restoreAllMocks();
});

it('writes the whole plan durably before the first request of a run', async () => {
  /** What happened, in order: each durable write finished (with the planned entries then on disk), each request. */
  const events: string[] = [];
  const durable = JournalWriter.prototype.durable;
  vi.spyOn(JournalWriter.prototype, 'durable').mockImplementation(async function (this: JournalWriter) {
    await durable.call(this);
    events.push(`durable: ${journalEntries(this.path).filter((entry) => entry.type === 'planned').length} planned`);
  });
  let next = 1_000_001;
  const server = await serve((request, response) => {
    if (request.method === 'POST') events.push('request');
    sendJson(response, 201, next++);
  });
  const home = tempHome();
  writeProfile(home, localProfile(server.url, 'plan-durable-token-0123'));
  writeNdjson(home, 'batch.ndjson', records(5));

  const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--yes'], { home });
  expect(result.code, result.stderr).toBe(0);
  expect(events.filter((event) => event === 'request')).toHaveLength(5);
  expect(events[0]).toBe('durable: 5 planned');
});
