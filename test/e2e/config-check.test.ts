import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sampleStatistics, sendJson } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { runSpawned } from '../helpers/spawned.js';
import { tempHome } from '../helpers/home.js';
import { newToken } from '../helpers/secrets.js';

// `einvoice config check` over TLS, in a process of its own: Node reads NODE_EXTRA_CA_CERTS only as a process
// starts. The other checks: test/commands/config-check.test.ts.

describe('einvoice config check', () => {
  it('says which TLS version the service speaks, and fails with exit 5 on a certificate it cannot trust', async () => {
    // A certificate for 127.0.0.1 made for this test; the CLI trusts it only through NODE_EXTRA_CA_CERTS.
    const certificate = fileURLToPath(new URL('../fixtures/tls/localhost.crt', import.meta.url));
    const key = readFileSync(new URL('../fixtures/tls/localhost.key', import.meta.url));
    const server = createServer({ cert: readFileSync(certificate), key }, (_request, response) =>
      sendJson(response, 200, sampleStatistics()),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const home = tempHome();
      const token = newToken('tls');
      writeProfile(home, localProfile(`https://127.0.0.1:${(server.address() as AddressInfo).port}`, token));
      // Spawned: Node reads NODE_EXTRA_CA_CERTS only as a process starts.
      const trusted = await runSpawned(['config', 'check'], { env: { HOME: home, NODE_EXTRA_CA_CERTS: certificate } });
      expect(trusted.code, trusted.stdout + trusted.stderr).toBe(0);
      expect(trusted.stdout).toMatch(/✓ service +https:\/\/127\.0\.0\.1:\d+\/ answers over TLSv1\.3 in \d+ ms/);

      const untrusted = await runSpawned(['config', 'check'], { env: { HOME: home } });
      expect(untrusted.code).toBe(5);
      expect(untrusted.stdout).toMatch(
        /✗ service +https:\/\/127\.0\.0\.1:\d+\/ does not answer: self-signed certificate/,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
