import { expect, it } from 'vitest';
import { record, until, writeNdjson } from '../bulk/helpers.js';
import { serversClosedAfterEach } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { runSpawned } from '../helpers/spawned.js';
import { tempHome } from '../helpers/home.js';
import { newToken } from '../helpers/secrets.js';

// Two Ctrl-C end a bulk run at once; with --json, stdout still carries one JSON document with what is known: the
// records whose requests were out are uncertain (as the journal says), the others not sent. A process is the point.

const serve = serversClosedAfterEach();

interface JsonReport {
  summary: Record<string, number>;
  records: Array<{ record: number; status: string }>;
}

it('two SIGINTs during a bulk run with --json: stdout parses as one JSON document', async () => {
  // The requests are read and never answered, so the first SIGINT's "finish what is in flight" never ends.
  const service = await serve(() => undefined);
  const home = tempHome();
  writeProfile(home, localProfile(service.url, newToken('two-sigints')));
  writeNdjson(
    home,
    'batch.ndjson',
    // More than a pipe takes at once: the document must be whole however much of it the pipe holds back.
    Array.from({ length: 2000 }, (_, index) => record(index + 1)),
  );
  const run = runSpawned(['create', 'single', '--file', 'batch.ndjson', '--yes', '--json', '--concurrency', '4'], {
    home,
  });
  await until(() => service.requests.length === 4, 'four requests in flight');
  run.child.kill('SIGINT');
  await until(() => run.output.stderr.includes('Stopping: finishing what is in flight'), 'the first SIGINT noted');
  // A reader that falls behind, as jq on a busy machine: the document must be whole all the same.
  run.child.stdout.pause();
  run.child.kill('SIGINT');
  await until(() => run.output.stderr.includes('Interrupted again'), 'the second SIGINT noted');
  run.child.stdout.resume();
  const ended = await run;

  expect(ended.code, run.output.stderr).toBe(130);
  expect(run.output.stderr).toContain('Interrupted again: stopping at once.');
  const report = JSON.parse(run.output.stdout) as JsonReport;
  expect(report.summary).toMatchObject({ total: 2000, uncertain: 4, notSent: 1996, created: 0 });
  expect(report.records).toHaveLength(2000);
  const sent = new Set(service.requests.map((request) => (JSON.parse(request.body) as { note: string }).note));
  for (const each of report.records) {
    expect(each.status, `record ${each.record}`).toBe(sent.has(`Order ${each.record}`) ? 'uncertain' : 'not-sent');
  }
});
