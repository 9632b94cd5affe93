import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { http, postJson } from '../support/http-client.js';
import { type OidcTestProvider, startOidcTestProvider } from '../support/oidc-test-provider.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { aPkcePair } from '../support/social.js';

const APP = 'https://app.example/signed-in';
const API = 'http://accounts.test';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const fresh = (label: string) => `${label}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;

describe('HTTP: the last way in is one rule over password, passkeys and provider identities, decided in the commit (issue 62)', function () {
  this.timeout(60_000);
  let service: TestService;
  let corp: OidcTestProvider;

  before(async () => {
    corp = await startOidcTestProvider({ redirectUris: [`${API}/auth/oauth/corp/callback`] });
    service = await startTestService({
      RATE_LIMIT_MAX: '10000',
      PUBLIC_APP_URL: 'http://localhost:5173',
      PUBLIC_API_URL: API,
      OAUTH_PROVIDERS: 'corp',
      OAUTH_REDIRECT_URLS: APP,
      OAUTH_CORP_ISSUER: corp.issuer, OAUTH_CORP_CLIENT_ID: corp.clientId, OAUTH_CORP_CLIENT_SECRET: corp.clientSecret,
    });
  });
  after(async () => {
    await service.dispose();
    await corp.close();
  });

  const get = (path: string, access: string) => http(service.url, path, { method: 'GET', headers: bearer(access) });
  const del = (path: string, access: string) => http(service.url, path, { method: 'DELETE', headers: bearer(access) });

  /** The app's code at the end of a provider flow started at `url` (its `verifier`), with `sub` signing in at the provider. */
  const codeFrom = async (url: string, sub: string): Promise<string> => {
    const back = await corp.signIn(url, sub);
    const landed = await http(service.url, `/auth/oauth/corp/callback${back.search}`, { method: 'GET' });
    expect(landed.status, landed.text).to.equal(302);
    return new URL(String(landed.headers['location'])).searchParams.get('code') ?? '';
  };

  /**
   * An account made by a social sign-in (no password) that then registered one passkey (proving its holder by a new
   * provider sign-in): one identity, one passkey, both ways in.
   */
  const identityAndPasskey = async (label: string) => {
    const sub = `${label}-${randomBytes(4).toString('hex')}`;
    corp.setAccount(sub, { email: fresh(label), email_verified: true });
    const pair = aPkcePair();
    const started = await http(service.url, `/auth/oauth/corp/authorize?${new URLSearchParams({ redirect_to: APP, code_challenge: pair.challenge, code_challenge_method: 'S256' }).toString()}`, { method: 'GET' });
    const signedIn = await postJson(service.url, '/auth/oauth/token', { code: await codeFrom(String(started.headers['location']), sub), code_verifier: pair.verifier });
    expect(signedIn.status, signedIn.text).to.equal(201);
    const access: string = signedIn.body.data.accesstoken;
    const proof = aPkcePair();
    const reauth = await postJson(service.url, '/auth/oauth/corp/reauthenticate', { redirect_to: APP, code_challenge: proof.challenge, code_challenge_method: 'S256', action: 'add-passkey' }, bearer(access));
    expect(reauth.status, reauth.text).to.equal(200);
    const oauthcode = await codeFrom(reauth.body.data.url, sub);
    const options = await postJson(service.url, '/auth/passkeys/registration-options', { oauthcode, code_verifier: proof.verifier }, bearer(access));
    expect(options.status, options.text).to.equal(200);
    const response = new SoftAuthenticator('http://localhost:5173').create(options.body.data);
    const added = await postJson(service.url, '/auth/passkeys', { response, name: 'Phone' }, bearer(access));
    expect(added.status, added.text).to.equal(201);
    const [identity] = (await get('/auth/identities', access)).body.data.identities as { id: string }[];
    const [passkey] = (await get('/auth/passkeys', access)).body.data.passkeys as { id: string }[];
    return { access, identity: `/auth/identities/${identity?.id ?? ''}`, passkey: `/auth/passkeys/${passkey?.id ?? ''}` };
  };

  const waysIn = async (access: string) =>
    (await get('/auth/identities', access)).body.data.identities.length + (await get('/auth/passkeys', access)).body.data.passkeys.length;
  /** The status and the envelope's message (LAST_SIGN_IN_METHOD answers 409 'Last way to sign in'). */
  const answer = (res: { status: number; body?: { message?: string } }) => [res.status, res.status === 204 ? null : res.body?.message];
  const LAST = [409, 'Last way to sign in'];

  it('removes the passkey while the identity remains, then refuses to unlink the identity (409 LAST_SIGN_IN_METHOD)', async () => {
    const ada = await identityAndPasskey('passkey-first');
    expect(answer(await del(ada.passkey, ada.access)), 'the identity is still a way in').to.deep.equal([204, null]);
    expect(answer(await del(ada.identity, ada.access))).to.deep.equal(LAST);
    expect(await waysIn(ada.access)).to.equal(1);
  });

  it('unlinks the identity while the passkey remains, then refuses to remove the passkey (409 LAST_SIGN_IN_METHOD)', async () => {
    const ada = await identityAndPasskey('identity-first');
    expect(answer(await del(ada.identity, ada.access)), 'the passkey is still a way in').to.deep.equal([204, null]);
    expect(answer(await del(ada.passkey, ada.access))).to.deep.equal(LAST);
    expect(await waysIn(ada.access)).to.equal(1);
  });

  it('of 10 simultaneous passkey removals and identity unlinks exactly one succeeds, the rest are 409 or 404, and one way in is left', async () => {
    const ada = await identityAndPasskey('race');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => del(i % 2 === 0 ? ada.passkey : ada.identity, ada.access)));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 204), statuses.join(',')).to.have.length(1);
    expect(statuses.every((status) => [204, 404, 409].includes(status)), statuses.join(',')).to.equal(true);
    expect(answers.filter((res) => res.status === 409).every((res) => res.body.message === LAST[1])).to.equal(true);
    expect(await waysIn(ada.access)).to.equal(1);
  });
});
