import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonSchemaNames } from '../../src/schemas/json-schema.js';
import { newAjv } from '../helpers/json-schema-validators.js';
import { recurringInvoice, singleInvoice } from '../schemas/fixtures.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';

// `einvoice schema NAME` prints a JSON Schema an editor can check files with; files may name it in `$schema`.

const examples = {
  single: singleInvoice(),
  recurring: recurringInvoice(),
  refund: { amount: '150.00', reason: 'Damaged item', orderReferenceNumber: '3712345' },
  config: {
    defaultEnv: 'staging',
    environments: { staging: { baseUrl: 'https://staging.example.com', tokenEnv: 'T' } },
  },
};

describe('einvoice schema', () => {
  it.each(jsonSchemaNames)(
    'prints the %s schema, which accepts a valid file and refuses a broken one',
    async (name) => {
      const result = await runInProcess(['schema', name]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      const schema = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      const validateFile = newAjv().compile(schema);
      expect(validateFile({ $schema: `./${name}.schema.json`, ...examples[name] })).toBe(true);
      expect(validateFile({ ...examples[name], unknownField: 1 })).toBe(false);
    },
  );

  it('names the schemas there are when given another name', async () => {
    const result = await runInProcess(['schema', 'invoice']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('No schema named "invoice".');
    expect(result.stderr).toContain('Choose one of single, recurring, refund, config.');
    const typo = await runInProcess(['schema', 'singel']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('No schema named "singel". Did you mean single?');
  });

  it('a refund file naming its schema is read without the $schema key', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'refund.json'), JSON.stringify({ $schema: './refund.schema.json', ...examples.refund }));
    const result = await runInProcess(['refund', '1000007', '--file', 'refund.json', '--dry-run', '--json'], {
      env: { HOME: home },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      method: 'POST',
      body: { amount: 150, reason: 'Damaged item', orderReferenceNumber: '3712345' },
    });
    expect(result.stdout).not.toContain('$schema');
  });

  it('a profile file naming its schema is read', async () => {
    const home = tempHome();
    writeFileSync(join(home, '.einvoicerc'), JSON.stringify({ $schema: './config.schema.json', ...examples.config }));
    const result = await runInProcess(['config', 'show', '--json'], { env: { HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ environment: 'staging', baseUrl: 'https://staging.example.com' });
  });
});
