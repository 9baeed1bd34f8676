import { describe, expect, it } from 'vitest';
import { unsupportedNode } from '../src/start.js';

describe('the Node.js that runs einvoice', () => {
  it('is refused below 22, naming the version and the way out, and accepted from 22 on', () => {
    expect(unsupportedNode('20.20.2')).toBe(
      'einvoice needs Node.js 22.22.2 or later (24 recommended); this is Node.js 20.20.2. Install a newer Node.js, or the standalone executable, which carries its own.',
    );
    expect(unsupportedNode('22.22.2')).toBeUndefined();
    expect(unsupportedNode('24.21.0')).toBeUndefined();
  });
});
