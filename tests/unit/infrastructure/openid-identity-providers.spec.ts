import { createHmac } from 'node:crypto';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { expect } from 'chai';
import { ProviderFailed, type ProviderRefusal } from '../../../src/application/social-sign-in/errors.js';
import type { OAuthProviderSettings, OAuthSettings } from '../../../src/infrastructure/social-sign-in/oauth-settings.js';
import { OpenIdIdentityProviders } from '../../../src/infrastructure/social-sign-in/providers/openid-identity-providers.js';
import { startGitHubStandIn, type GitHubStandIn } from '../../support/github-stand-in.js';
import { startOidcTestProvider, type OidcTestProvider } from '../../support/oidc-test-provider.js';
import { rejection } from '../../support/rejection.js';
import { startRogueProvider, type IdTokenDefect, type RogueProvider } from '../../support/rogue-provider.js';

const KEY = Buffer.from('the service key of the social sign-in tests, 32+ bytes');
const redirectUriOf = (name: string): string => `http://127.0.0.1:3000/auth/oauth/${name}/callback`;
const keyed = (purpose: string, value: string): string => createHmac('sha256', KEY).update(`${purpose}:${value}`).digest('base64url');

const providerOf = (settings: Partial<OAuthProviderSettings> & Pick<OAuthProviderSettings, 'name' | 'issuer' | 'clientId'>): OAuthProviderSettings => ({
  kind: 'oidc',
  apiUrl: '',
  clientSecret: undefined,
  scopes: 'openid email profile',
  redirectUri: redirectUriOf(settings.name),
  ...settings,
});

const settingsOf = (provider: OAuthProviderSettings, httpTimeoutMs = 5_000): OAuthSettings => ({
  providers: [provider],
  redirectUrls: ['http://127.0.0.1:5173/done'],
  httpTimeoutMs,
  allowHttp: true,
});

const refusalOf = async (promise: Promise<unknown>): Promise<ProviderRefusal> => {
  const error = await rejection(promise);
  if (!(error instanceof ProviderFailed)) throw error;
  return error.reason;
};

const callbackOf = (url: URL): Record<string, string> => Object.fromEntries(url.searchParams);

const freePort = async (): Promise<number> => {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
};

describe('OpenIdIdentityProviders', () => {
  describe('with a real OpenID provider (oidc-provider)', () => {
    let op: OidcTestProvider;
    let providers: OpenIdIdentityProviders;
    const warnings: object[] = [];

    before(async () => {
      op = await startOidcTestProvider({ redirectUris: [redirectUriOf('op')] });
      op.setAccount('ada', { email: 'ada@example.com', email_verified: true, given_name: 'Ada', family_name: 'Lovelace', name: 'Ada Lovelace' });
      op.setAccount('bob', { email: 'bob@example.com', email_verified: false, name: 'Bob' });
      op.setAccount('unsaid', { email: 'unsaid@example.com' });
      op.setAccount('string-false', { email: 'string-false@example.com', email_verified: 'false' });
      op.setAccount('string-true', { email: 'string-true@example.com', email_verified: 'true' });
      const provider = providerOf({ name: 'op', issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret });
      providers = new OpenIdIdentityProviders(settingsOf(provider), KEY, { warn: (obj) => void warnings.push(obj) });
    });

    after(async () => {
      providers.close();
      await op.close();
    });

    it('knows its configured providers, makes 256-bit handles and keyed, stable fingerprints of them', () => {
      expect(providers.has('op')).to.equal(true);
      expect(providers.has('other')).to.equal(false);
      const handle = providers.newHandle();
      expect(handle).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(providers.newHandle()).to.not.equal(handle);
      expect(providers.idOf(handle)).to.equal(keyed('oauth-handle', handle)).and.to.equal(providers.idOf(handle));
    });

    it('puts code, client, redirect URI, scopes, state, the derived nonce and the S256 challenge of the derived verifier in the authorization URL', async () => {
      const state = providers.newHandle();
      const url = new URL(await providers.authorizationUrl('op', state));
      expect(`${url.origin}${url.pathname}`).to.equal(`${op.issuer}/auth`);
      expect(Object.fromEntries(url.searchParams)).to.deep.equal({
        response_type: 'code',
        client_id: op.clientId,
        redirect_uri: redirectUriOf('op'),
        scope: 'openid email profile',
        state,
        nonce: keyed('oauth-nonce', state),
        code_challenge: await providers.s256(keyed('oauth-pkce', state)),
        code_challenge_method: 'S256',
      });
    });

    it('completes a flow with what the provider shows: its issuer, the subject, a verified address and the names', async () => {
      const state = providers.newHandle();
      const callback = await op.signIn(await providers.authorizationUrl('op', state), 'ada');
      expect(callback.searchParams.get('iss'), 'RFC 9207 iss is sent').to.equal(op.issuer);
      expect(await providers.complete('op', callbackOf(callback), state)).to.deep.equal({
        issuer: op.issuer,
        subject: 'ada',
        email: 'ada@example.com',
        emailVerified: true,
        givenName: 'Ada',
        familyName: 'Lovelace',
        name: 'Ada Lovelace',
      });
    });

    it('reports an address the provider has not verified as unverified', async () => {
      const state = providers.newHandle();
      const callback = await op.signIn(await providers.authorizationUrl('op', state), 'bob');
      expect(await providers.complete('op', callbackOf(callback), state)).to.deep.include({ subject: 'bob', email: 'bob@example.com', emailVerified: false, givenName: null, name: 'Bob' });
    });

    it('counts an address as proven only for email_verified true (or the string "true"): absent or the string "false" is unproven', async () => {
      const profileOf = async (sub: string) => {
        const state = providers.newHandle();
        return providers.complete('op', callbackOf(await op.signIn(await providers.authorizationUrl('op', state), sub)), state);
      };
      expect(await profileOf('unsaid')).to.deep.include({ email: 'unsaid@example.com', emailVerified: false });
      expect(await profileOf('string-false')).to.deep.include({ email: 'string-false@example.com', emailVerified: false });
      expect(await profileOf('string-true')).to.deep.include({ email: 'string-true@example.com', emailVerified: true });
    });

    it('refuses a callback completed under a state that is not its flow’s: invalid_response', async () => {
      const callback = await op.signIn(await providers.authorizationUrl('op', providers.newHandle()), 'ada');
      expect(await refusalOf(providers.complete('op', callbackOf(callback), providers.newHandle()))).to.equal('invalid_response');
    });

    it('refuses another flow’s code, whose verifier is not this flow’s, and logs neither the code nor the secret', async () => {
      const stolen = await op.signIn(await providers.authorizationUrl('op', providers.newHandle()), 'ada');
      const victim = providers.newHandle();
      await providers.authorizationUrl('op', victim);
      warnings.length = 0;
      const refusal = await refusalOf(providers.complete('op', { ...callbackOf(stolen), state: victim }, victim));
      expect(refusal).to.equal('invalid_response');
      expect(warnings).to.have.length(1);
      const logged = JSON.stringify(warnings);
      expect(logged).to.not.include(stolen.searchParams.get('code') ?? 'no code').and.to.not.include(op.clientSecret);
    });

    it('says access_denied when the user refuses at the provider', async () => {
      const state = providers.newHandle();
      const callback = await op.deny(await providers.authorizationUrl('op', state));
      expect(callback.searchParams.get('error')).to.equal('access_denied');
      expect(await refusalOf(providers.complete('op', callbackOf(callback), state))).to.equal('access_denied');
    });
  });

  describe('with a provider whose ID token has one defect', () => {
    let rogue: RogueProvider;
    let providers: OpenIdIdentityProviders;

    before(async () => {
      rogue = await startRogueProvider({ clientId: 'rogue-client', redirectUri: redirectUriOf('rogue') });
      providers = new OpenIdIdentityProviders(settingsOf(providerOf({ name: 'rogue', issuer: rogue.issuer, clientId: 'rogue-client' })), KEY);
    });

    after(async () => {
      providers.close();
      await rogue.close();
    });

    const flowWith = async (defect: IdTokenDefect): Promise<unknown> => {
      rogue.setDefect(defect);
      const state = providers.newHandle();
      const callback = await rogue.signIn(await providers.authorizationUrl('rogue', state));
      return providers.complete('rogue', callbackOf(callback), state);
    };

    for (const defect of ['nonce', 'iss', 'aud', 'expired', 'unknown-key', 'alg-none'] as const) {
      it(`refuses an ID token with the defect ${defect}: invalid_response`, async () => {
        expect(await refusalOf(flowWith(defect))).to.equal('invalid_response');
      });
    }

    it('accepts the same provider’s correct ID token, so each refusal above is its defect’s', async () => {
      expect(await flowWith('none')).to.deep.include({ issuer: rogue.issuer, subject: 'rogue-user', email: 'rogue@example.com', emailVerified: true });
    });
  });

  describe('when the provider cannot be reached', () => {
    it('says temporarily_unavailable while nothing listens, and succeeds once the provider is up', async () => {
      const port = await freePort();
      const issuer = `http://127.0.0.1:${port}`;
      const providers = new OpenIdIdentityProviders(settingsOf(providerOf({ name: 'late', issuer, clientId: 'late-client' })), KEY);
      try {
        expect(providers.has('late')).to.equal(true);
        expect(await refusalOf(providers.authorizationUrl('late', providers.newHandle()))).to.equal('temporarily_unavailable');
        expect(await refusalOf(providers.complete('late', { code: 'x', state: 'y' }, 'y'))).to.equal('temporarily_unavailable');
        const rogue = await startRogueProvider({ clientId: 'late-client', redirectUri: redirectUriOf('late'), port });
        try {
          expect(await providers.authorizationUrl('late', providers.newHandle())).to.match(new RegExp(`^${issuer}/authorize\\?`));
        } finally {
          await rogue.close();
        }
      } finally {
        providers.close();
      }
    });

    it('gives up at the deadline on a provider that accepts the connection but never answers', async () => {
      const sockets = new Set<Socket>();
      const silent = createTcpServer((socket) => void sockets.add(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const issuer = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const providers = new OpenIdIdentityProviders(settingsOf(providerOf({ name: 'silent', issuer, clientId: 'c' }), 300), KEY);
      try {
        const started = Date.now();
        expect(await refusalOf(providers.authorizationUrl('silent', providers.newHandle()))).to.equal('temporarily_unavailable');
        expect(Date.now() - started, 'the deadline, not fetch’s own minutes').to.be.below(5_000);
      } finally {
        providers.close();
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    });
  });

  describe('with GitHub (plain OAuth 2 from static metadata)', () => {
    let github: GitHubStandIn;
    let providers: OpenIdIdentityProviders;
    const user = { id: 583231, login: 'octocat', name: 'The Octocat' };

    before(async () => {
      github = await startGitHubStandIn({ clientId: 'gh-client', clientSecret: 'gh-secret' });
      const provider = providerOf({
        name: 'github', kind: 'github', issuer: github.url, apiUrl: github.url, clientId: 'gh-client', clientSecret: 'gh-secret', scopes: 'read:user user:email',
      });
      providers = new OpenIdIdentityProviders(settingsOf(provider), KEY);
    });

    after(async () => {
      providers.close();
      await github.close();
    });

    const signIn = async (state: string): Promise<Record<string, string>> => callbackOf(await github.signIn(await providers.authorizationUrl('github', state)));

    it('sends PKCE but no nonce, and reads the numeric id, the name and the primary verified address', async () => {
      github.setUser({
        ...user,
        emails: [
          { email: 'old@example.com', primary: false, verified: true },
          { email: 'octocat@example.com', primary: true, verified: true },
        ],
      });
      const state = providers.newHandle();
      const url = new URL(await providers.authorizationUrl('github', state));
      expect(url.searchParams.has('nonce')).to.equal(false);
      expect(url.searchParams.get('code_challenge')).to.equal(await providers.s256(keyed('oauth-pkce', state)));
      const callback = callbackOf(await github.signIn(url.href));
      expect(await providers.complete('github', callback, state)).to.deep.equal({
        issuer: github.url,
        subject: '583231',
        email: 'octocat@example.com',
        emailVerified: true,
        givenName: null,
        familyName: null,
        name: 'The Octocat',
      });
    });

    it('shows no address when the primary one is not verified', async () => {
      github.setUser({ ...user, emails: [{ email: 'octocat@example.com', primary: true, verified: false }] });
      const state = providers.newHandle();
      expect(await providers.complete('github', await signIn(state), state)).to.deep.include({ subject: '583231', email: null, emailVerified: false });
    });

    it('refuses another flow’s code, which GitHub answers with a 200 error body: invalid_response', async () => {
      const stolen = await signIn(providers.newHandle());
      const victim = providers.newHandle();
      expect(await refusalOf(providers.complete('github', { ...stolen, state: victim }, victim))).to.equal('invalid_response');
    });
  });
});
