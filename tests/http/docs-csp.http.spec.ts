import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { type HttpResponse, http } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const API_CSP =
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;" +
  "object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'";

const directives = (policy: unknown): Map<string, string[]> =>
  new Map(
    String(policy)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name as string, sources]),
  );

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('HTTP: Swagger UI at /docs under helmet, and the API keeping helmet\'s policy', () => {
  let service: TestService;
  let page: HttpResponse;
  let pageUrl: URL;
  let csp: Map<string, string[]>;
  const get = (path: string) => http(service.url, path, { method: 'GET' });

  before(async () => {
    service = await startTestService();
    pageUrl = new URL('/docs', service.url);
    page = await get(pageUrl.pathname);
    for (let hops = 0; page.status >= 300 && page.status < 400 && hops < 3; hops += 1) {
      pageUrl = new URL(String(page.headers['location']), pageUrl);
      page = await get(pageUrl.pathname);
    }
    csp = directives(page.headers['content-security-policy']);
  });
  after(async () => service.dispose());

  it('serves the UI page as HTML under a Content-Security-Policy', () => {
    expect(page.status).to.equal(200);
    expect(page.headers['content-type']).to.match(/^text\/html/);
    expect(page.text).to.match(/id="swagger-ui"/);
    expect(csp.get('script-src')).to.include("'self'").and.not.include("'unsafe-inline'");
  });

  it('allows every script of the page: inline ones by hash, external ones same-origin and served as JavaScript', async () => {
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).to.not.be.empty;
    for (const [, attributes, body] of scripts) {
      const src = /\ssrc="([^"]+)"/.exec(attributes ?? '')?.[1];
      if (src === undefined) {
        expect(csp.get('script-src'), 'inline script hash').to.include(sha256(body ?? ''));
        continue;
      }
      const url = new URL(src, pageUrl);
      expect(url.origin, src).to.equal(pageUrl.origin);
      const asset = await get(url.pathname);
      expect(asset.status, src).to.equal(200);
      expect(asset.headers['content-type'], src).to.match(/javascript/);
    }
  });

  it('has no inline event handlers (script-src-attr is none) and loads its styles same-origin', () => {
    expect(csp.get('script-src-attr')).to.deep.equal(["'none'"]);
    expect(page.text).to.not.match(/\son[a-z]+\s*=/i);
    for (const [, href] of page.text.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)) {
      expect(new URL(href as string, pageUrl).origin).to.equal(pageUrl.origin);
    }
    expect(csp.get('style-src')).to.include("'self'");
  });

  it('the initializer loads the document same-origin and calls no third-party validator', async () => {
    const src = /<script src="([^"]*swagger-initializer\.js)"/.exec(page.text)?.[1];
    expect(src, 'the page loads swagger-initializer.js').to.be.a('string');
    const initializer = await get(new URL(src as string, pageUrl).pathname);
    expect(initializer.status).to.equal(200);
    expect(initializer.headers['content-type']).to.match(/javascript/);
    expect(initializer.text).to.match(/url: resolveUrl\('\.\/json'\)/);
    expect(initializer.text).to.match(/validatorUrl: null/);
    expect(initializer.text).to.not.match(/['"`]https?:\/\//);
    expect((await get(new URL('./json', new URL('/docs/', pageUrl)).pathname)).status).to.equal(200);
  });

  it('API routes keep helmet\'s default policy, less upgrade-insecure-requests (plain HTTP must keep working)', async () => {
    for (const path of ['/auth/me', '/.well-known/jwks.json', '/health/live', '/no/such/route']) {
      expect((await get(path)).headers['content-security-policy'], path).to.equal(API_CSP);
    }
  });
});
