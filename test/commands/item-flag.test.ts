import { expect, it } from 'vitest';
import { serversClosedAfterEach } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';
import { newToken } from '../helpers/secrets.js';
import { folderWithProfile } from '../helpers/profile.js';

// An --item that gives one key twice would send whichever value came last: it is refused, naming the key.

const serve = serversClosedAfterEach();

it('--item "code=S,code=T,...": refused with exit 2, naming the key, nothing sent', async () => {
  const service = await serve();
  const cwd = folderWithProfile(service.url, newToken('item'));
  const result = await runInProcess(
    [
      ...['create', 'single', '--customer-name', 'Mona Adel', '--customer-mobile', '+201001234567'],
      ...['--sending-date', '2030-05-01', '--release-date', '2030-05-01', '--expiry-date', '2030-05-31'],
      ...['--note', 'Order 77', '--yes', '--item', 'code=S,code=T,qty=1,price=10,en=Shirt,ar=قميص'],
    ],
    { cwd },
  );
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain('items[0] (--item): "code" is given twice in one item: give it once');
  expect(service.requests).toEqual([]);
  expect(result.stdout).toBe('');
});
