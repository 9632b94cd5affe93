import { expect } from 'chai';
import { withSources } from '../../../src/interfaces/http/docs-csp.js';

const HELMET = "default-src 'self';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'";

describe('withSources (the /docs Content-Security-Policy)', () => {
  it('appends the sources to the one directive named, leaving the others as they are', () => {
    expect(withSources(HELMET, 'script-src', ["'sha256-abc='", "'sha256-def='"])).to.equal(
      "default-src 'self';script-src 'self' 'sha256-abc=' 'sha256-def=';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'",
    );
  });

  it('adds each source once, and changes nothing when there is nothing to add', () => {
    const once = withSources(HELMET, 'script-src', ["'sha256-abc='"]);
    expect(withSources(once, 'script-src', ["'sha256-abc='"])).to.equal(once);
    expect(withSources(HELMET, 'script-src', [])).to.equal(HELMET);
  });

  it('creates the directive when the policy lacks it', () => {
    expect(withSources("default-src 'self'", 'script-src', ["'self'"])).to.equal("default-src 'self';script-src 'self'");
  });
});
