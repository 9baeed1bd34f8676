import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { DiagnosticSeverity, getLanguageService, TextDocument } from 'vscode-json-languageservice';

// The two JSON Schema validators a merchant's files meet: VS Code's own JSON language service, as the editor checks
// a file against a schema, and ajv, as a CI script would. Both as the recipes of docs/schema.md configure them.

/**
 * ajv in strict mode (unknown keywords and formats, and keywords without their type, fail to compile) with the
 * formats and the `multipleOf` tolerance the recipe of docs/schema.md gives it: ajv divides floats, so without a tolerance
 * it refuses 19.99 (19.99 / 0.01 is 1998.9999999999998).
 */
export function newAjv() {
  const ajv = new Ajv2020({ strict: true, multipleOfPrecision: 6 });
  addFormats.default(ajv);
  return ajv;
}

/** Below this, ajv's float `multipleOf` with the tolerance gives every amount the exact verdict. */
export const ajvExactBelow = 10_000_000;

/** VS Code's validator with `schemas` mapped to files as a workspace's `json.schemas` setting maps them. */
export function editorValidator(schemas: Record<string, unknown>) {
  const service = getLanguageService({});
  service.configure({
    validate: true,
    schemas: Object.entries(schemas).map(([name, schema]) => ({
      uri: `https://einvoice.invalid/${name}.schema.json`,
      fileMatch: [`*.${name}.json`],
      schema: schema as never,
    })),
  });
  /** True when a file of the `name` schema holding `payload` shows no error. */
  return async (name: string, payload: unknown): Promise<boolean> => {
    const file = TextDocument.create(`file:///invoices/payload.${name}.json`, 'json', 1, JSON.stringify(payload));
    const problems = await service.doValidation(file, service.parseJSONDocument(file), { schemaValidation: 'error' });
    return !problems.some((problem) => problem.severity === DiagnosticSeverity.Error);
  };
}
