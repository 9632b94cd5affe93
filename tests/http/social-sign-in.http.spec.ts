import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { type GitHubStandIn, startGitHubStandIn } from '../support/github-stand-in.js';
import { type HttpResponse, http, postJson } from '../support/http-client.js';
import { type OidcTestProvider, startOidcTestProvider } from '../support/oidc-test-provider.js';
import { type IdTokenDefect, type RogueProvider, startRogueProvider } from '../support/rogue-provider.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { captureLogs } from '../support/log-capture.js';
import { sampleValue } from '../support/prometheus-text.js';
import { codeOf } from '../support/totp.js';
import { verifyByMail } from '../support/verify-by-mail.js';
import { aPkcePair } from '../support/social.js';

const PASSWORD = 'analytical engine 1843';
const APP = 'https://app.example/signed-in';
/** The redirect URI registered at the providers: the test plays the browser, so it need not resolve. */
const API = 'http://accounts.test';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const claimsOf = (access: string) => JSON.parse(Buffer.from(access.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
const get = (service: TestService, path: string, headers: Record<string, string> = {}) => http(service.url, path, { method: 'GET', headers });
const fresh = (label: string) => `${label}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;


describe('HTTP: social sign-in against a real OpenID provider, a rogue one and a GitHub stand-in (issue 52)', function () {
  this.timeout(60_000);
  let service: TestService;
  let corp: OidcTestProvider;
  let rogue: RogueProvider;
  let github: GitHubStandIn;
  const logs = captureLogs('debug');
  /** Every code, state and verifier the flows passed around: none may reach the log. */
  const secrets: string[] = [];

  before(async () => {
    corp = await startOidcTestProvider({ redirectUris: [`${API}/auth/oauth/corp/callback`] });
    rogue = await startRogueProvider({ clientId: 'rogue-client', redirectUri: `${API}/auth/oauth/rogue/callback` });
    github = await startGitHubStandIn({ clientId: 'gh-client', clientSecret: 'gh-secret' });
    service = await startTestService({
      LOG_LEVEL: 'debug',
      RATE_LIMIT_MAX: '10000',
      PUBLIC_API_URL: API,
      OAUTH_PROVIDERS: 'corp,rogue,github,down',
      OAUTH_REDIRECT_URLS: `${APP},com.example.app:/done`,
      OAUTH_HTTP_TIMEOUT_MS: '2000',
      OAUTH_CORP_ISSUER: corp.issuer, OAUTH_CORP_CLIENT_ID: corp.clientId, OAUTH_CORP_CLIENT_SECRET: corp.clientSecret,
      OAUTH_ROGUE_ISSUER: rogue.issuer, OAUTH_ROGUE_CLIENT_ID: 'rogue-client', OAUTH_ROGUE_CLIENT_SECRET: 'rogue-secret',
      OAUTH_GITHUB_KIND: 'github', OAUTH_GITHUB_ISSUER: github.url, OAUTH_GITHUB_API_URL: github.url, OAUTH_GITHUB_CLIENT_ID: 'gh-client', OAUTH_GITHUB_CLIENT_SECRET: 'gh-secret',
      OAUTH_DOWN_ISSUER: 'http://127.0.0.1:9', OAUTH_DOWN_CLIENT_ID: 'nobody',
    }, { logger: logs.logger });
  });
  after(async () => {
    await service.dispose();
    await Promise.all([corp.close(), rogue.close(), github.close()]);
  });

  const authorize = (provider: string, challenge: string, redirectTo = APP) =>
    get(service, `/auth/oauth/${provider}/authorize?${new URLSearchParams({ redirect_to: redirectTo, code_challenge: challenge, code_challenge_method: 'S256' }).toString()}`);

  /** The provider's redirect back, played on the service's real socket. */
  const callback = (provider: string, back: URL) => get(service, `/auth/oauth/${provider}/callback${back.search}`);

  const returned = (res: HttpResponse): Record<string, string> => {
    expect(res.status, res.text).to.equal(302);
    const location = String(res.headers['location']);
    expect(location.startsWith(`${APP}?`) || location.startsWith('com.example.app:/done?'), location).to.equal(true);
    return Object.fromEntries(new URL(location).searchParams);
  };

  /** Through the provider: start (or the link's URL), the user's sign-in there, the callback; the app's params and verifier. */
  const through = async (provider: string, signInAt: (url: string) => Promise<URL>, linkUrl?: { url: string; verifier: string }) => {
    const pair = linkUrl ? { verifier: linkUrl.verifier, challenge: '' } : aPkcePair();
    let url = linkUrl?.url;
    if (url === undefined) {
      const started = await authorize(provider, pair.challenge);
      expect(started.status, started.text).to.equal(302);
      url = String(started.headers['location']);
    }
    const back = await signInAt(url);
    const params = returned(await callback(provider, back));
    secrets.push(...[back.searchParams.get('code'), back.searchParams.get('state'), params['code'], pair.verifier].filter((value): value is string => value !== null && value !== undefined));
    return { params, verifier: pair.verifier, back };
  };

  const exchange = (code: string | undefined, verifier: string) => postJson(service.url, '/auth/oauth/token', { code, code_verifier: verifier });

  const corpSignIn = async (sub: string, claims: Record<string, string | boolean>) => {
    corp.setAccount(sub, claims);
    const { params, verifier } = await through('corp', (url) => corp.signIn(url, sub));
    return { params, verifier };
  };

  const signedIn = async (sub: string, claims: Record<string, string | boolean>) => {
    const { params, verifier } = await corpSignIn(sub, claims);
    const res = await exchange(params['code'], verifier);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { user: { id: string; email: string; emailverified: boolean }; accesstoken: string; refreshtoken: string };
  };

  it("signs in a new person: the provider's page, the callback, a one-time code to the app, the exchange; amr oauth, no token in any URL", async () => {
    const email = fresh('ada');
    const pair = aPkcePair();
    const started = await authorize('corp', pair.challenge);
    expect(started.status).to.equal(302);
    const to = new URL(String(started.headers['location']));
    expect(to.origin).to.equal(corp.issuer);
    expect(Object.fromEntries(to.searchParams)).to.include({ response_type: 'code', client_id: corp.clientId, redirect_uri: `${API}/auth/oauth/corp/callback`, code_challenge_method: 'S256' });
    expect(to.searchParams.get('code_challenge')).to.not.equal(pair.challenge);
    expect(to.searchParams.get('nonce')).to.have.length(43);
    corp.setAccount('ada-sub', { email, email_verified: true, given_name: 'Ada', family_name: 'Lovelace' });
    const back = await corp.signIn(to.href, 'ada-sub');
    expect(back.searchParams.get('iss'), 'RFC 9207').to.equal(corp.issuer);
    const landed = await callback('corp', back);
    expect(landed.headers['cache-control']).to.equal('no-store');
    expect(landed.headers['referrer-policy']).to.equal('no-referrer');
    const params = returned(landed);
    expect(Object.keys(params)).to.deep.equal(['code']);
    expect(params['code']?.split('.')).to.have.length(1);
    const res = await exchange(params['code'], pair.verifier);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.message).to.equal('User created successfully');
    expect(res.body.data.user).to.deep.include({ email, name: 'Ada', lastname: 'Lovelace', emailverified: true });
    expect(claimsOf(res.body.data.accesstoken)['amr']).to.deep.equal(['oauth']);
    const password = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
    expect(password.status, 'no password: as a wrong one').to.equal(401);
  });

  it('counts social sign-ins by outcome in /metrics, apart from password sign-ins', async () => {
    const scrape = async () => (await get(service, '/metrics')).text;
    const before = await scrape();
    await signedIn('metrics-sub', { email: fresh('metrics'), email_verified: true });
    expect((await exchange('not-a-code', aPkcePair().verifier)).status).to.equal(400);
    const after = await scrape();
    const moved = (outcome: string) => (sampleValue(after, 'account_sign_in_oauth_total', { outcome }) ?? NaN) - (sampleValue(before, 'account_sign_in_oauth_total', { outcome }) ?? NaN);
    expect([moved('success'), moved('invalid_input'), moved('second_factor_required')]).to.deep.equal([1, 1, 0]);
    expect(sampleValue(after, 'account_sign_in_total', { outcome: 'success' })).to.equal(sampleValue(before, 'account_sign_in_total', { outcome: 'success' }));
  });

  it('reaches the same account by the same subject under a new address', async () => {
    const first = await signedIn('moving-sub', { email: fresh('before'), email_verified: true });
    const again = await signedIn('moving-sub', { email: fresh('after'), email_verified: true });
    expect(again.user.id).to.equal(first.user.id);
  });

  it('refuses a return URL outside the allow-list with 400 JSON and no Location: look-alike hosts, ports, paths', async () => {
    for (const redirectTo of ['https://app.example.evil/signed-in', 'https://evil.example/?https://app.example/signed-in', 'https://app.example:444/signed-in', 'https://app.example/signed-in/../x', 'https://app.example/signed-inx', 'https://app.example@evil.example/signed-in']) {
      const res = await authorize('corp', aPkcePair().challenge, redirectTo);
      expect(res.status, redirectTo).to.equal(400);
      expect(res.headers['location'], redirectTo).to.equal(undefined);
      expect(res.body.errors.map((issue: { field: string }) => issue.field), redirectTo).to.deep.equal(['redirect_to']);
    }
    expect((await get(service, '/auth/oauth/corp/authorize?redirect_to=https%3A%2F%2Fapp.example%2Fsigned-in&code_challenge=short&code_challenge_method=plain')).status).to.equal(400);
    expect((await authorize('nobody', aPkcePair().challenge)).status).to.equal(404);
  });

  it('refuses a replayed callback (400, no redirect) and a replayed or mis-verified code', async () => {
    corp.setAccount('replay-sub', { email: fresh('replay'), email_verified: true });
    const { params, verifier, back } = await through('corp', (url) => corp.signIn(url, 'replay-sub'));
    const replayed = await callback('corp', back);
    expect(replayed.status).to.equal(400);
    expect(replayed.headers['location']).to.equal(undefined);
    expect((await exchange(params['code'], aPkcePair().verifier)).status, 'a wrong verifier').to.equal(400);
    expect((await exchange(params['code'], verifier)).status, 'spent by the wrong verifier').to.equal(400);
    const second = await through('corp', (url) => corp.signIn(url, 'replay-sub'));
    expect((await exchange(second.params['code'], second.verifier)).status).to.equal(201);
    expect((await exchange(second.params['code'], second.verifier)).status, 'a replayed code').to.equal(400);
  });

  it('refuses each defective ID token of the rogue provider, making no account, and takes a correct one to the account check', async () => {
    for (const defect of ['nonce', 'iss', 'aud', 'expired', 'unknown-key', 'alg-none'] as const satisfies readonly IdTokenDefect[]) {
      rogue.setDefect(defect);
      expect((await through('rogue', (url) => rogue.signIn(url))).params, defect).to.deep.equal({ error: 'invalid_response' });
    }
    const squat = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'rogue@example.com' }));
    expect(squat.status, 'the address was left free').to.equal(201);
    rogue.setDefect('none');
    expect((await through('rogue', (url) => rogue.signIn(url))).params, 'a correct token, then the unproven account is not joined').to.deep.equal({ error: 'account_exists' });
  });

  it('links a new identity to the verified account of its proven address, never to an unverified one, and never on an unproven address', async () => {
    const owner = fresh('owner');
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: owner }));
    expect((await corpSignIn('owner-early', { email: owner, email_verified: true })).params, 'the address is not proven yet').to.deep.equal({ error: 'account_exists' });
    await verifyByMail(service, owner);
    expect((await corpSignIn('owner-unproven', { email: owner, email_verified: false })).params).to.deep.equal({ error: 'account_exists' });
    const linked = await signedIn('owner-sub', { email: owner, email_verified: true });
    expect(linked.user.id).to.equal(up.body.data.user.id);
    const identities = await get(service, '/auth/identities', bearer(linked.accesstoken));
    expect(identities.body.data.identities.map((identity: { provider: string; email: string }) => [identity.provider, identity.email])).to.deep.equal([['corp', owner]]);
    const exported = await get(service, '/auth/me/export', bearer(linked.accesstoken));
    expect(exported.body.data.records.identities.map((identity: { provider: string; email: string }) => [identity.provider, identity.email])).to.deep.equal([['corp', owner]]);
    expect(exported.text, 'the subject is not shown').to.not.include('owner-sub');
  });

  it('proves no address the provider did not say true for (email_verified absent, or the string "false"), and takes no Kelvin-sign look-alike to the k\u2026 account', async () => {
    const owner = fresh('kate');
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: owner }));
    await verifyByMail(service, owner);
    expect((await corpSignIn('unsaid-sub', { email: owner })).params, 'email_verified absent').to.deep.equal({ error: 'account_exists' });
    expect((await corpSignIn('false-sub', { email: owner, email_verified: 'false' })).params, 'email_verified "false"').to.deep.equal({ error: 'account_exists' });
    expect((await corpSignIn('kelvin-sub', { email: `\u212a${owner.slice(1)}`, email_verified: true })).params, 'U+212A').to.deep.equal({ error: 'email_required' });
    expect((await corpSignIn('wide-sub', { email: `\uff4b${owner.slice(1)}`, email_verified: true })).params, 'U+FF4B').to.deep.equal({ error: 'email_required' });
    for (const [sub, claims] of [['unsaid-new', {}], ['false-new', { email_verified: 'false' }]] as const) {
      const made = await signedIn(sub, { email: fresh(sub), ...claims });
      expect(made.user.emailverified, sub).to.equal(false);
    }
    const linked = await signedIn('kate-sub', { email: owner, email_verified: true });
    expect(linked.user.id, 'the same owner, proven, is joined').to.equal(up.body.data.user.id);
    const identities = await get(service, '/auth/identities', bearer(linked.accesstoken));
    expect(identities.body.data.identities.map((identity: { email: string }) => identity.email)).to.deep.equal([owner]);
  });

  it('links from a session with the password, refuses an identity linked elsewhere, and will not unlink the last way in', async () => {
    const email = fresh('linker');
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
    await verifyByMail(service, email);
    const access = (await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).body.data.accesstoken as string;
    const pair = aPkcePair();
    const body = { redirect_to: APP, code_challenge: pair.challenge, code_challenge_method: 'S256' };
    expect((await postJson(service.url, '/auth/oauth/corp/link', { ...body, currentpassword: 'wrong' }, bearer(access))).status).to.equal(400);
    const link = await postJson(service.url, '/auth/oauth/corp/link', { ...body, currentpassword: PASSWORD }, bearer(access));
    expect(link.status, link.text).to.equal(200);
    corp.setAccount('linked-sub', { email: fresh('elsewhere'), email_verified: true });
    const { params } = await through('corp', (url) => corp.signIn(url, 'linked-sub'), { url: link.body.data.url, verifier: pair.verifier });
    const res = await exchange(params['code'], pair.verifier);
    expect(res.body.data.user.id).to.equal(up.body.data.user.id);

    const taken = await signedIn('taken-sub', { email: fresh('taken'), email_verified: true });
    const again = aPkcePair();
    const second = await postJson(service.url, '/auth/oauth/corp/link', { ...body, code_challenge: again.challenge, currentpassword: PASSWORD }, bearer(access));
    expect((await through('corp', (url) => corp.signIn(url, 'taken-sub'), { url: second.body.data.url, verifier: again.verifier })).params).to.deep.equal({ error: 'identity_in_use' });

    const [only] = (await get(service, '/auth/identities', bearer(taken.accesstoken))).body.data.identities as { id: string }[];
    const unlink = await http(service.url, `/auth/identities/${only?.id ?? ''}`, { method: 'DELETE', headers: bearer(taken.accesstoken) });
    expect([unlink.status, unlink.body?.message]).to.deep.equal([409, 'Last way to sign in']);
  });

  it("links nothing at the callback: a link URL opened in a victim's browser ends in the victim's app, whose verifier is not the attacker's", async () => {
    const attacker = fresh('attacker');
    await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: attacker }));
    await verifyByMail(service, attacker);
    const access = (await postJson(service.url, '/auth/sign-in', { email: attacker, password: PASSWORD })).body.data.accesstoken as string;
    const attackers = aPkcePair();
    const link = await postJson(service.url, '/auth/oauth/corp/link', { redirect_to: APP, code_challenge: attackers.challenge, code_challenge_method: 'S256', currentpassword: PASSWORD }, bearer(access));
    expect(link.status, link.text).to.equal(200);
    const victimAddress = fresh('victim');
    corp.setAccount('csrf-victim-sub', { email: victimAddress, email_verified: true });
    const victimsApp = aPkcePair();
    const { params } = await through('corp', (url) => corp.signIn(url, 'csrf-victim-sub'), { url: link.body.data.url, verifier: victimsApp.verifier });
    expect(Object.keys(params)).to.deep.equal(['code']);
    expect((await get(service, '/auth/identities', bearer(access))).body.data.identities, 'nothing linked at the callback').to.deep.equal([]);
    const exchanged = await exchange(params['code'], victimsApp.verifier);
    expect([exchanged.status, exchanged.body.errors]).to.deep.equal([400, [{ field: 'code_verifier', code: 'MISMATCH', message: 'does not match the code_challenge' }]]);
    expect((await get(service, '/auth/identities', bearer(access))).body.data.identities, 'nor at a failed exchange').to.deep.equal([]);
    const victim = await signedIn('csrf-victim-sub', { email: victimAddress, email_verified: true });
    expect(victim.user.email, "the victim's provider sign-in reaches the victim's own account").to.equal(victimAddress);
  });

  it('links at the exchange with the right verifier only: never with the challenge as the verifier (no PKCE downgrade)', async () => {
    const email = fresh('linker2');
    await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
    await verifyByMail(service, email);
    const access = (await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).body.data.accesstoken as string;
    const pair = aPkcePair();
    const link = await postJson(service.url, '/auth/oauth/corp/link', { redirect_to: APP, code_challenge: pair.challenge, code_challenge_method: 'S256', currentpassword: PASSWORD }, bearer(access));
    corp.setAccount('linker2-sub', { email: fresh('elsewhere2'), email_verified: true });
    const first = await through('corp', (url) => corp.signIn(url, 'linker2-sub'), { url: link.body.data.url, verifier: pair.verifier });
    expect((await exchange(first.params['code'], pair.challenge)).status, 'the challenge itself is no verifier').to.equal(400);
    expect((await get(service, '/auth/identities', bearer(access))).body.data.identities).to.deep.equal([]);
    const again = aPkcePair();
    const second = await postJson(service.url, '/auth/oauth/corp/link', { redirect_to: APP, code_challenge: again.challenge, code_challenge_method: 'S256', currentpassword: PASSWORD }, bearer(access));
    const { params } = await through('corp', (url) => corp.signIn(url, 'linker2-sub'), { url: second.body.data.url, verifier: again.verifier });
    expect((await exchange(params['code'], again.verifier)).status).to.equal(201);
    const identities = (await get(service, '/auth/identities', bearer(access))).body.data.identities as { provider: string }[];
    expect(identities.map((identity) => identity.provider)).to.deep.equal(['corp']);
  });

  it('a sign-in code redeemed with its own challenge as the verifier is refused and spent', async () => {
    const { params, verifier } = await corpSignIn('downgrade-sub', { email: fresh('downgrade'), email_verified: true });
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect((await exchange(params['code'], challenge)).status).to.equal(400);
    expect((await exchange(params['code'], verifier)).status, 'spent by the wrong attempt').to.equal(400);
  });

  it('an account without a password proves its holder by a new provider sign-in made for the action, or a code of its app; never by a young token', async () => {
    const email = fresh('passwordless');
    const grace = await signedIn('passwordless-sub', { email, email_verified: true });
    const access = grace.accesstoken;
    const refused = await http(service.url, '/auth/me', { method: 'DELETE', headers: bearer(access) });
    expect([refused.status, refused.body.message], 'a token seconds old proves nothing').to.deep.equal([403, 'Recent sign-in required']);
    const reauth = async (action: string) => {
      const pair = aPkcePair();
      const started = await postJson(service.url, '/auth/oauth/corp/reauthenticate', { redirect_to: APP, code_challenge: pair.challenge, code_challenge_method: 'S256', action }, bearer(access));
      expect(started.status, started.text).to.equal(200);
      expect(Object.fromEntries(new URL(started.body.data.url).searchParams)).to.include({ prompt: 'login', max_age: '0' });
      const { params } = await through('corp', (url) => corp.signIn(url, 'passwordless-sub'), { url: started.body.data.url, verifier: pair.verifier });
      return { oauthcode: params['code'], code_verifier: pair.verifier };
    };
    const forDeletion = await reauth('delete-account');
    const misused = await postJson(service.url, '/auth/email', { newemail: fresh('moved'), ...forDeletion }, bearer(access));
    expect([misused.status, misused.body.errors], 'a proof serves its own action only').to.deep.equal([400, [{ field: 'oauthcode', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }]]);
    const enrolment = await postJson(service.url, '/auth/mfa/totp', await reauth('enrol-totp'), bearer(access));
    expect(enrolment.status, enrolment.text).to.equal(200);
    const secret: string = enrolment.body.data.secret;
    expect((await postJson(service.url, '/auth/mfa/totp/confirm', { code: codeOf(secret, new Date()) }, bearer(access))).status).to.equal(200);
    const moved = await postJson(service.url, '/auth/email', { newemail: fresh('moved2'), code: codeOf(secret, new Date(), 1) }, bearer(access));
    expect(moved.status, 'a code made for this request is the step-up too').to.equal(202);
    const again = await corpSignIn('passwordless-sub', { email, email_verified: true });
    const challenged = await exchange(again.params['code'], again.verifier);
    expect([challenged.status, challenged.body.message], 'a provider sign-in of an account without a password still asks its second factor').to.deep.equal([202, 'Second factor required']);
    const providerOnly = await http(service.url, '/auth/me', { method: 'DELETE', body: await reauth('delete-account'), headers: { ...bearer(access), 'content-type': 'application/json' } });
    expect([providerOnly.status, providerOnly.body.message], 'a provider sign-in is one factor: the step-up is still asked').to.deep.equal([403, 'Second factor required']);
  });

  it('does not skip the second factor: the exchange answers 202 and the code finishes it with amr oauth and otp', async () => {
    const email = fresh('factor');
    await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
    await verifyByMail(service, email);
    const access = (await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).body.data.accesstoken as string;
    const secret: string = (await postJson(service.url, '/auth/mfa/totp', { currentpassword: PASSWORD }, bearer(access))).body.data.secret;
    expect((await postJson(service.url, '/auth/mfa/totp/confirm', { code: codeOf(secret, new Date()) }, bearer(access))).status).to.equal(200);
    const { params, verifier } = await corpSignIn('factor-sub', { email, email_verified: true });
    const res = await exchange(params['code'], verifier);
    expect([res.status, res.body.message]).to.deep.equal([202, 'Second factor required']);
    const done = await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: res.body.data.mfatoken, code: codeOf(secret, new Date(), 1) });
    expect(done.status, done.text).to.equal(201);
    expect(claimsOf(done.body.data.accesstoken)['amr']).to.deep.equal(['oauth', 'otp']);
  });

  it('signs in with GitHub by its numeric id and its primary verified address, and records the events', async () => {
    const email = fresh('octo');
    github.setUser({ id: 583231, login: 'octocat', name: 'Mona Lisa Octocat', emails: [{ email: fresh('secondary'), primary: false, verified: true }, { email, primary: true, verified: true }] });
    const { params, verifier } = await through('github', (url) => github.signIn(url));
    const res = await exchange(params['code'], verifier);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.user).to.deep.include({ email, name: 'Mona Lisa', lastname: 'Octocat', emailverified: true });
    const activity = await get(service, '/auth/me/activity', bearer(res.body.data.accesstoken));
    expect(activity.body.data.events.map((event: { type: string }) => event.type)).to.include.members(['identity_linked', 'signed_in_with_provider']);
  });

  it('sends the app error=temporarily_unavailable for a provider that cannot be reached, and access_denied for a refusal', async () => {
    expect(returned(await authorize('down', aPkcePair().challenge))).to.deep.equal({ error: 'temporarily_unavailable' });
    const { params } = await through('corp', (url) => corp.deny(url));
    expect(params).to.deep.equal({ error: 'access_denied' });
  });

  it('never logs a code, a state, a verifier or a client secret, at debug level', () => {
    expect(secrets.length).to.be.above(20);
    const text = logs.lines.join('\n');
    expect(text, 'the log holds lines').to.include('identity provider');
    for (const secret of [...secrets, corp.clientSecret, 'rogue-secret', 'gh-secret']) expect(text.includes(secret), secret).to.equal(false);
  });
});
