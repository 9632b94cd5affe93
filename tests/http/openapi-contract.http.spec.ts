import { expect } from 'chai';
import { http, postJson } from '../support/http-client.js';
import { apiKeyFor } from '../support/api-keys.js';
import { mailedToken } from '../support/verify-by-mail.js';
import { type OpenApiDocument, dereference, operationsOf, schemaErrors } from '../support/openapi-check.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { valuesWithoutExample } from '../../src/interfaces/http/openapi-conventions.js';

/**
 * The OpenAPI document is the whole contract (issue 63): what a client generated from it requires is what the server
 * requires, every value has a realistic example, and every property follows one naming rule.
 */

/** Names of protocol fields, kept as their standard spells them (RFC 6749, RFC 7636, RFC 7662). */
const PROTOCOL_NAMES = new Set(['code_verifier', 'code_challenge', 'code_challenge_method', 'token_type', 'client_id', 'redirect_uri']);
/** `redirect_to` is the return address of the service's own social sign-in, named as its OAuth siblings in the same query (`code_challenge`). */
const KEPT_NAMES = new Set(['redirect_to']);
const API_NAME = /^[a-z][a-z0-9]*$/;

type Schema = Record<string, any>;

/** Every property name a schema defines, at any depth, with where. */
function propertyNames(doc: OpenApiDocument, schema: unknown, where: string, found: Map<string, string>, seen = new Set<unknown>()): void {
  const node = dereference(doc, schema) as Schema | undefined;
  if (node === null || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  for (const [name, property] of Object.entries((node['properties'] ?? {}) as Record<string, unknown>)) {
    if (!found.has(name)) found.set(name, where);
    propertyNames(doc, property, `${where}.${name}`, found, seen);
  }
  for (const nested of [...(node['oneOf'] ?? []), ...(node['anyOf'] ?? []), ...(node['allOf'] ?? [])]) propertyNames(doc, nested, where, found, seen);
  if (node['items'] !== undefined) propertyNames(doc, node['items'], `${where}[]`, found, seen);
  if (typeof node['additionalProperties'] === 'object') propertyNames(doc, node['additionalProperties'], `${where}{}`, found, seen);
}

/** What the document says a body must carry when nothing is sent: its required fields and the first of its choices. */
function requiredOf(doc: OpenApiDocument, schema: unknown): string[] {
  const node = dereference(doc, schema) as Schema;
  return [...new Set([...((node['required'] ?? []) as string[]), ...((node['oneOf']?.[0]?.required ?? []) as string[])])].sort();
}

describe('HTTP: the OpenAPI document is the whole contract (issue 63)', function () {
  this.timeout(120_000);
  let service: TestService;
  let doc: OpenApiDocument;
  let adminKey: string;
  before(async () => {
    service = await startTestService({
      RATE_LIMIT_MAX: '100000',
      PASSWORD_RESET_RATE_LIMIT_MAX: '100000',
      OAUTH_PROVIDERS: 'corp',
      OAUTH_REDIRECT_URLS: 'https://app.example.com/done',
      OAUTH_CORP_ISSUER: 'http://127.0.0.1:9',
      OAUTH_CORP_CLIENT_ID: 'corp-client',
    });
    doc = (await http(service.url, '/docs/json', { method: 'GET' })).body;
    adminKey = (await apiKeyFor(service.dataDir, 'users:read,users:write,introspect')).key;
  });
  after(async () => service.dispose());

  let accounts = 0;
  /** A fresh account whose address is proven, signed in: its bearer token. */
  const signedIn = async (): Promise<string> => {
    const email = `contract-${(accounts += 1)}@example.com`;
    const up = await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email, password: 'correct-horse-battery-staple' });
    const token = await mailedToken(service, email, 'Confirm your e-mail address');
    await postJson(service.url, '/auth/verify-email', { token });
    return up.body.data.accesstoken as string;
  };

  const withBody = () =>
    operationsOf(doc).filter(({ operation }) => operation.requestBody?.content?.['application/json'] !== undefined);

  it('answers `{}` to every operation with a body by naming exactly the fields the document requires', async () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const { path, method, operation } of withBody()) {
      const required = requiredOf(doc, operation.requestBody.content['application/json'].schema);
      const security = JSON.stringify(operation.security ?? []);
      const authorization = security.includes('apiKey') ? `Bearer ${adminKey}` : security.includes('bearerAuth') ? `Bearer ${await signedIn()}` : undefined;
      const url = path.replace('{provider}', 'corp').replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const res = await http(service.url, url, {
        method: method.toUpperCase(),
        headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
        body: '{}',
      });
      const named = res.status === 400 ? [...new Set((res.body.errors as { field: string | null }[]).map((issue) => issue.field))].sort() : [];
      checked += 1;
      if (JSON.stringify(named) !== JSON.stringify(required)) mismatches.push(`${method.toUpperCase()} ${path}: ${res.status} names ${JSON.stringify(named)}, the document requires ${JSON.stringify(required)}`);
    }
    expect(checked).to.be.greaterThan(20);
    expect(mismatches).to.deep.equal([]);
  });

  it('the check is not vacuous: sign-up posted `{}` names its four fields, as the document requires them', async () => {
    const res = await postJson(service.url, '/auth/sign-up', {});
    expect([res.status, res.body.code]).to.deep.equal([400, 'INVALID_INPUT']);
    expect(res.body.errors.map((issue: { field: string }) => issue.field).sort()).to.deep.equal(requiredOf(doc, doc['paths']['/auth/sign-up'].post.requestBody.content['application/json'].schema));
  });

  it('gives every JSON request body and every success answer an example, which its own schema accepts', () => {
    const problems: string[] = [];
    for (const { path, method, operation } of operationsOf(doc)) {
      const media = [
        ['request', operation.requestBody?.content?.['application/json']],
        ...Object.entries((operation.responses ?? {}) as Record<string, any>)
          .filter(([status]) => status.startsWith('2'))
          .map(([status, response]) => [status, response.content?.['application/json']]),
      ] as [string, any][];
      for (const [what, content] of media) {
        if (content === undefined) continue;
        const examples = content.example !== undefined ? [content.example] : Object.values((content.examples ?? {}) as Record<string, { value: unknown }>).map((example) => example.value);
        if (examples.length === 0) problems.push(`${method} ${path} ${what}: no example`);
        for (const example of examples) {
          const error = schemaErrors(dereference(doc, content.schema), example);
          // A named example may show a refused body on purpose (the sign-in's wrong password is well-formed, though).
          if (error !== null && content.example !== undefined) problems.push(`${method} ${path} ${what}: ${error}`);
        }
      }
    }
    expect(problems).to.deep.equal([]);
  });

  it('leaves no value to a placeholder: every string has a realistic example, a format, an enum or a const', () => {
    expect(valuesWithoutExample(structuredClone(doc))).to.deep.equal([]);
  });

  it('shows addresses at example.com only', () => {
    const addresses = JSON.stringify(doc).match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? [];
    expect(addresses.filter((address) => !/@example\.com$/.test(address))).to.deep.equal([]);
  });

  it('names every property it defines by one rule (lower case, no separators), protocol fields as their standard does', () => {
    const found = new Map<string, string>();
    for (const [name, schema] of Object.entries((doc['components']?.schemas ?? {}) as Record<string, unknown>)) propertyNames(doc, schema, name, found);
    for (const { path, method, operation } of operationsOf(doc)) {
      for (const parameter of (operation.parameters ?? []) as { name: string; in: string }[]) {
        if (parameter.in !== 'header' && !found.has(parameter.name)) found.set(parameter.name, `${method} ${path} ${parameter.in}`);
      }
    }
    expect(found.size).to.be.greaterThan(50);
    const offending = [...found].filter(([name]) => !API_NAME.test(name) && !PROTOCOL_NAMES.has(name) && !KEPT_NAMES.has(name)).map(([name, where]) => `${name} (${where})`);
    expect(offending).to.deep.equal([]);
  });

  it('lists the code of every error answer in the envelope, and answers one', async () => {
    const envelope = doc['components'].schemas['ErrorEnvelope'];
    expect(envelope.required).to.include('code');
    const refused = await postJson(service.url, '/auth/sign-in', { email: 'nobody@example.com', password: 'correct-horse-battery-staple' });
    expect([refused.status, refused.body.code]).to.deep.equal([401, 'INVALID_CREDENTIALS']);
    expect(envelope.properties.code.enum).to.include.members(['INVALID_INPUT', 'INVALID_CREDENTIALS', 'PASSKEY_NOT_FOUND', 'API_KEY_NOT_FOUND'].filter((code) => code !== 'API_KEY_NOT_FOUND'));
  });
});
