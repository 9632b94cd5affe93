import { expect } from 'chai';
import { loadConfig } from '../../../src/infrastructure/config/config.js';
import { PRODUCTION_KEYS, configFailure } from '../../support/config-failure.js';
import { CAPABILITIES } from '../../../src/capabilities/index.js';
import { derivedOf } from '../../../src/infrastructure/container/capability.js';
import { OAUTH } from '../../../src/infrastructure/social-sign-in/oauth-settings.js';

/** The providers and redirect URLs as social sign-in's manifest has loadConfig derive them. */
const oauthOf = (env: Record<string, string>) => derivedOf(loadConfig(env, CAPABILITIES), OAUTH);

const failure = configFailure;

const corp = { OAUTH_PROVIDERS: 'corp', OAUTH_CORP_ISSUER: 'https://id.example.com/realms/staff', OAUTH_CORP_CLIENT_ID: 'accounts' };

describe('the social sign-in settings', () => {
  it('are off without OAUTH_PROVIDERS, and the flows may return to PUBLIC_APP_URL alone', () => {
    const oauth = oauthOf({ PUBLIC_APP_URL: 'https://app.example.com/signed-in' });
    expect(oauth.providers).to.deep.equal([]);
    expect(oauth.redirectUrls).to.deep.equal(['https://app.example.com/signed-in']);
    expect(oauth.httpTimeoutMs).to.equal(5000);
  });

  it('read each provider from its own variables, with the redirect URI under PUBLIC_API_URL', () => {
    const oauth = oauthOf({ ...corp, OAUTH_PROVIDERS: 'corp,git-hub', PUBLIC_API_URL: 'https://api.example.com', OAUTH_GIT_HUB_KIND: 'github', OAUTH_GIT_HUB_CLIENT_ID: 'Iv1.x', OAUTH_GIT_HUB_CLIENT_SECRET: 's3cret' });
    expect(oauth.providers[0]).to.deep.include({ name: 'corp', kind: 'oidc', issuer: 'https://id.example.com/realms/staff', clientSecret: undefined, scopes: 'openid email profile', redirectUri: 'https://api.example.com/auth/oauth/corp/callback' });
    expect(oauth.providers[1]).to.deep.include({ name: 'git-hub', kind: 'github', issuer: 'https://github.com', apiUrl: 'https://api.github.com', clientSecret: 's3cret', scopes: 'read:user user:email' });
  });

  it('refuse a provider without its client id or issuer, a bad name, a repeated name and an unknown kind, naming the variable', () => {
    expect(failure({ ...corp, OAUTH_CORP_CLIENT_ID: '' })).to.include('OAUTH_CORP_CLIENT_ID is required');
    expect(failure({ ...corp, OAUTH_CORP_ISSUER: '' })).to.include('OAUTH_CORP_ISSUER is required');
    expect(failure({ ...corp, OAUTH_PROVIDERS: 'Corp' })).to.include('OAUTH_PROVIDERS names "Corp"');
    expect(failure({ ...corp, OAUTH_PROVIDERS: 'corp,corp' })).to.include('names corp twice');
    expect(failure({ ...corp, OAUTH_CORP_KIND: 'saml' })).to.include('OAUTH_CORP_KIND must be oidc or github');
  });

  it('take an http issuer only outside production, and in production need PUBLIC_API_URL', () => {
    const local = { ...corp, OAUTH_CORP_ISSUER: 'http://localhost:4000' };
    expect(oauthOf(local).providers[0]?.issuer).to.equal('http://localhost:4000');
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://relay.example:587', ...PRODUCTION_KEYS, PUBLIC_APP_URL: 'https://app.example.com' };
    expect(failure({ ...production, ...corp })).to.include('PUBLIC_API_URL is required');
    expect(failure({ ...production, ...local, PUBLIC_API_URL: 'https://api.example.com' })).to.include('OAUTH_CORP_ISSUER must be an https URL in production');
  });

  it("take redirect URLs without query or fragment, http only for localhost in production, or an app's own scheme", () => {
    expect(oauthOf({ OAUTH_REDIRECT_URLS: 'https://app.example.com/cb, com.example.app:/done' }).redirectUrls).to.deep.equal(['https://app.example.com/cb', 'com.example.app:/done']);
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://relay.example:587', ...PRODUCTION_KEYS };
    expect(oauthOf({ ...production, OAUTH_REDIRECT_URLS: 'http://localhost:5173/cb' }).redirectUrls).to.deep.equal(['http://localhost:5173/cb']);
    for (const url of ['http://app.example.com/cb', 'javascript:alert(1)', 'https://app.example.com/cb?next=1', 'https://app.example.com/cb#x', 'not a url']) {
      expect(failure({ ...production, OAUTH_REDIRECT_URLS: url }), url).to.include('OAUTH_REDIRECT_URLS holds');
    }
  });
});
