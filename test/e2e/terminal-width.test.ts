import { afterEach, describe, expect, it } from 'vitest';
import { spawnCliInPty, type PtySession } from '../helpers/pty.js';
import { tempHome } from '../helpers/home.js';

// A pseudo-terminal nobody sized reports 0 columns (`script` run without a terminal, some CI runners). The
// commands that show a spinner on a terminal must print their data and exit there too.

let session: PtySession | undefined;
afterEach(() => {
  session?.kill();
  session = undefined;
});

describe('a terminal that reports no width', () => {
  it('prints the statistics and exits, without a spinner redrawn in place', async () => {
    session = spawnCliInPty(['stats', '--env', 'sandbox'], { home: tempHome(), columns: 0 });
    expect((await session.exited).code).toBe(0);
    expect(session.screen()).toMatch(/Invoices\b/);
    expect(session.screen().length).toBeLessThan(10_000);
  }, 30_000);
});
