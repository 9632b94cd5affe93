import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { http } from '../support/http-client.js';
import { type OpenApiDocument, dereference, operationsOf } from '../support/openapi-check.js';
import { type TestService, startTestService } from '../support/test-service.js';

/**
 * A client generated from the document (openapi-typescript, as integrators generate one) compiles what the server
 * accepts and rejects, at compile time, what it refuses: `body: {}` for every operation that requires a field, and a
 * misspelt field (issue 63).
 */
describe('HTTP: a client generated from the OpenAPI document (openapi-typescript)', function () {
  this.timeout(120_000);
  let service: TestService;
  let doc: OpenApiDocument;
  let dir: string;
  before(async () => {
    service = await startTestService({ STORAGE: 'memory' });
    doc = (await http(service.url, '/docs/json', { method: 'GET' })).body;
    dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
  });
  after(async () => {
    await service.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Compiles the generated types with `checks`; the compiler's messages (none when every expectation holds). */
  const compile = (checks: string): string[] => {
    writeFileSync(join(dir, 'checks.ts'), checks);
    const program = ts.createProgram([join(dir, 'checks.ts')], { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => `${diagnostic.start ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
  };

  it('rejects `{}` for each operation with required fields, and a misspelt field, and accepts each documented example', async () => {
    writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(doc as never)));
    const lines = [
      "import type { paths } from './api.js';",
      "type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;",
    ];
    let refused = 0;
    for (const { path, method, operation } of operationsOf(doc)) {
      const media = operation.requestBody?.content?.['application/json'];
      if (media === undefined) continue;
      const schema = dereference(doc, media.schema);
      const type = `Body<'${path}', '${method}'>`;
      if ((schema.required ?? []).length > 0 || schema.oneOf !== undefined) {
        lines.push(`// @ts-expect-error ${method} ${path} requires fields`, `export const empty${refused}: ${type} = {};`);
        refused += 1;
      }
      const examples = media.example !== undefined ? [media.example] : Object.values((media.examples ?? {}) as Record<string, { value: unknown }>).map((example) => example.value);
      examples.forEach((example, index) => lines.push(`export const example${lines.length}_${index}: ${type} = ${JSON.stringify(example)};`));
    }
    lines.push(
      '// @ts-expect-error a misspelt field',
      "export const misspelt: Body<'/auth/sign-up', 'post'> = { name: 'Ada', lastname: 'Lovelace', emial: 'ada@example.com', password: 'correct-horse-battery-staple' };",
    );
    expect(refused).to.be.greaterThan(20);
    expect(compile(lines.join('\n'))).to.deep.equal([]);
  });

  it('the check is not vacuous: a body that lacks a required field and is not expected to fail is reported', () => {
    const diagnostics = compile(["import type { paths } from './api.js';", "export const empty: paths['/auth/sign-up']['post']['requestBody']['content']['application/json'] = {};"].join('\n'));
    expect(diagnostics.join('\n')).to.match(/missing the following properties|is missing/);
  });
});
