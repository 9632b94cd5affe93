import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createLogger } from '../../src/infrastructure/logging/logger.js';
import { SERVICE_OPERATIONS } from '../support/service-operations.js';
import { buildHttpServer } from '../../src/interfaces/http/server.js';
import { ShutdownState } from '../../src/interfaces/http/shutdown-state.js';
import { ERROR_TABLE, type ErrorCode } from '../../src/interfaces/http/shared/error-table.js';
import type { SocialSignInErrorCode } from '../../src/application/social-sign-in/errors.js';
import type { PasskeysErrorCode } from '../../src/application/passkeys/errors.js';
import { type AnyOperation, impliedErrors } from '../../src/interfaces/http/shared/operation.js';
import { aSignUpBody } from '../support/builders.js';
import { type HttpResponse, http } from '../support/http-client.js';
import { tokenInText } from '../support/mail.js';
import { codeOf } from '../support/totp.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';
import { httpServerOptions } from '../support/http-server-options.js';
import { type OpenApiDocument, responseSchema, schemaErrors, undocumented } from '../support/openapi-check.js';
import { type SmtpInbox, startSmtpInbox } from '../support/smtp-inbox.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { apiKeyFor } from '../support/api-keys.js';
import { type OidcTestProvider, startOidcTestProvider } from '../support/oidc-test-provider.js';

interface Call {
  readonly path?: string;
  readonly body?: unknown;
  readonly token?: string;
  readonly query?: string;
}

interface Account {
  readonly email: string;
  readonly password: string;
  readonly accessToken: string;
  readonly refreshToken: string;
}

interface World {
  /** A new account, signed up over HTTP. */
  account(): Promise<Account>;
  /** A new account, signed up over HTTP, its address then proven by the link of its verification mail. */
  verified(): Promise<Account>;
  /** A new account with a confirmed authenticator (its code's step used), its secret and its recovery codes. */
  withSecondFactor(): Promise<Account & { readonly secret: string; readonly recoveryCodes: readonly string[] }>;
  /** The access token of `account`'s session raised by a recovery code (POST /auth/mfa/verify): it passes step-up. */
  steppedUp(account: Account & { readonly recoveryCodes: readonly string[] }): Promise<string>;
  /**
   * A new account (or `account`, whose token passes what registering needs) with a passkey registered over HTTP
   * (answered by a software authenticator on the default origin).
   */
  withPasskey<A extends Account = Account>(account?: A): Promise<A & { readonly passkeyId: string; readonly authenticator: SoftAuthenticator }>;
  /** The token of the newest mail of this subject to this address, after delivering what is due (mails leave concurrently). */
  mailedToken(email: string, subject: 'Reset your password' | 'Confirm your e-mail address' | 'Confirm your new e-mail address' | 'Your e-mail address is about to change' | 'Your e-mail address was changed'): Promise<string>;
  /** A verified account that asked to move to a new address: both addresses. */
  movingAccount(): Promise<Account & { readonly newEmail: string }>;
  /**
   * A social sign-in through the test provider up to its callback's query (a new subject, a proven new address);
   * with `linkUrl`, the flow a link (POST /auth/oauth/corp/link) started. The app's verifier comes with it.
   */
  providerCallback(linkUrl?: { readonly url: string; readonly verifier: string }): Promise<{ readonly query: string; readonly verifier: string }>;
  /** A social sign-in up to the app's one-time code, and the verifier that redeems it. */
  oauthCode(): Promise<{ readonly code: string; readonly verifier: string }>;
}

interface Scenario {
  /** A request the operation answers with its declared success. */
  readonly success: (world: World) => Promise<Call>;
  /**
   * A documented error the operation answers, and the request that provokes it; null only for an operation whose
   * sole documented errors are INTERNAL and SHUTTING_DOWN (the shutdown test covers every operation).
   */
  readonly error: { readonly code: ErrorCode | SocialSignInErrorCode | PasskeysErrorCode; readonly call: (world: World) => Promise<Call> } | null;
}

const NEW_PASSWORD = 'difference engine 1822';
const APP_URL = 'https://app.example/signed-in';
const aPkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
const flowBody = (challenge: string) => ({ redirect_to: APP_URL, code_challenge: challenge, code_challenge_method: 'S256' });
const flowQuery = (challenge: string) => `?${new URLSearchParams(flowBody(challenge)).toString()}`;
const needsToken: NonNullable<Scenario['error']> = { code: 'MISSING_TOKEN', call: () => Promise.resolve({}) };
const needsTokenWithBody: NonNullable<Scenario['error']> = { code: 'MISSING_TOKEN', call: () => Promise.resolve({ body: {} }) };
const notAnObject: NonNullable<Scenario['error']> = { code: 'INVALID_INPUT', call: () => Promise.resolve({ body: ['not', 'an', 'object'] }) };

/**
 * One scenario per operation, by operationId (or derived: scenarioOf): a new operation that needs input has none until
 * someone writes it, and the first test below fails until then. Each runs against the real service; the checks come from the declaration and the document.
 */
const SCENARIOS: Readonly<Record<string, Scenario>> = {
  signUp: {
    success: () => Promise.resolve({ body: aSignUpBody({ email: `new-${randomUUID()}@example.com` }) }),
    error: {
      code: 'EMAIL_ALREADY_REGISTERED',
      call: async (world) => ({ body: aSignUpBody({ email: (await world.account()).email }) }),
    },
  },
  signIn: {
    success: async (world) => {
      const { email, password } = await world.account();
      return { body: { email, password } };
    },
    error: { code: 'INVALID_CREDENTIALS', call: async (world) => ({ body: { email: (await world.account()).email, password: 'not the password' } }) },
  },
  changeProfile: {
    success: async (world) => ({ token: (await world.account()).accessToken, body: { name: 'Augusta Ada', lastname: 'King' } }),
    error: { code: 'INVALID_INPUT', call: async (world) => ({ token: (await world.account()).accessToken, body: { name: '', lastname: 'King' } }) },
  },
  getAccountActivity: {
    success: async (world) => ({ token: (await world.account()).accessToken, query: '?limit=5' }),
    error: { code: 'INVALID_INPUT', call: async (world) => ({ token: (await world.account()).accessToken, query: '?limit=0' }) },
  },
  listCredentials: {
    success: async (world) => ({ token: (await world.withPasskey()).accessToken }),
    error: null,
  },
  listSessions: {
    success: async (world) => ({ token: (await world.account()).accessToken, query: '?limit=5' }),
    error: { code: 'INVALID_CURSOR', call: async (world) => ({ token: (await world.account()).accessToken, query: '?cursor=bm90LWEtY3Vyc29y' }) },
  },
  refreshSession: {
    success: async (world) => ({ body: { refreshtoken: (await world.account()).refreshToken } }),
    error: { code: 'INVALID_REFRESH_TOKEN', call: () => Promise.resolve({ body: { refreshtoken: 'rt1.not-a-token' } }) },
  },
  signOut: {
    success: async (world) => ({ token: (await world.account()).accessToken, body: { scope: 'global' } }),
    error: { code: 'INVALID_INPUT', call: async (world) => ({ token: (await world.account()).accessToken, body: { scope: 'everywhere' } }) },
  },
  revokeSession: {
    success: async (world) => {
      const { accessToken } = await world.account();
      const sessionId = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8')).sid as string;
      return { token: accessToken, path: `/auth/sessions/${sessionId}` };
    },
    error: { code: 'SESSION_NOT_FOUND', call: async (world) => ({ token: (await world.account()).accessToken, path: `/auth/sessions/${randomUUID()}` }) },
  },
  changePassword: {
    success: async (world) => {
      const { accessToken, password } = await world.account();
      return { token: accessToken, body: { currentpassword: password, newpassword: NEW_PASSWORD } };
    },
    error: needsTokenWithBody,
  },
  requestPasswordReset: {
    success: async (world) => ({ body: { email: (await world.account()).email } }),
    error: { code: 'INVALID_INPUT', call: () => Promise.resolve({ body: { email: 'not an address' } }) },
  },
  confirmPasswordReset: {
    success: async (world) => {
      const { email } = await world.account();
      await request('POST', '/auth/password-reset', { body: { email } });
      return { body: { token: await world.mailedToken(email, 'Reset your password'), newpassword: NEW_PASSWORD } };
    },
    error: { code: 'INVALID_INPUT', call: () => Promise.resolve({ body: { token: 'reset1.forged', newpassword: NEW_PASSWORD } }) },
  },
  verifyEmail: {
    success: async (world) => {
      const { email } = await world.account();
      return { body: { token: await world.mailedToken(email, 'Confirm your e-mail address') } };
    },
    error: notAnObject,
  },
  cancelSignUp: {
    success: async (world) => {
      const { email } = await world.account();
      return { body: { token: await world.mailedToken(email, 'Confirm your e-mail address') } };
    },
    error: { code: 'INVALID_INPUT', call: () => Promise.resolve({ body: { token: 'verify1.forged' } }) },
  },
  enrolTotp: {
    success: async (world) => {
      const { accessToken: token, password } = await world.verified();
      return { token, body: { currentpassword: password } };
    },
    error: {
      code: 'MFA_ALREADY_ENROLLED',
      call: async (world) => {
        const account = await world.withSecondFactor();
        return { token: await world.steppedUp(account), body: { currentpassword: account.password } };
      },
    },
  },
  confirmTotp: {
    success: async (world) => {
      const { accessToken: token, password } = await world.verified();
      const secret: string = (await request('POST', '/auth/mfa/totp', { token, body: { currentpassword: password } })).body.data.secret;
      return { token, body: { code: codeOf(secret, new Date()) } };
    },
    error: { code: 'INVALID_INPUT', call: async (world) => ({ token: (await world.account()).accessToken, body: { code: '123456' } }) },
  },
  signInMfa: {
    success: async (world) => {
      const { email, password, secret } = await world.withSecondFactor();
      const challenge = await request('POST', '/auth/sign-in', { body: { email, password } });
      expect(challenge.status, challenge.text).to.equal(202);
      return { body: { mfatoken: challenge.body.data.mfatoken, code: codeOf(secret, new Date(), 1) } };
    },
    error: { code: 'INVALID_MFA_TOKEN', call: () => Promise.resolve({ body: { mfatoken: `mfa1.${'A'.repeat(43)}`, code: '123456' } }) },
  },
  verifyMfa: {
    success: async (world) => {
      const { accessToken: token, secret } = await world.withSecondFactor();
      return { token, body: { code: codeOf(secret, new Date(), 1) } };
    },
    error: { code: 'MFA_NOT_ENROLLED', call: async (world) => ({ token: (await world.account()).accessToken, body: { code: '123456' } }) },
  },
  regenerateRecoveryCodes: {
    success: async (world) => ({ token: await world.steppedUp(await world.withSecondFactor()) }),
    error: { code: 'STEP_UP_REQUIRED', call: async (world) => ({ token: (await world.withSecondFactor()).accessToken }) },
  },
  removeTotp: {
    success: async (world) => {
      const account = await world.withSecondFactor();
      return { token: await world.steppedUp(account), body: { currentpassword: account.password, code: codeOf(account.secret, new Date(), 1) } };
    },
    error: {
      code: 'STEP_UP_REQUIRED',
      call: async (world) => {
        const { accessToken: token, password, secret } = await world.withSecondFactor();
        return { token, body: { currentpassword: password, code: codeOf(secret, new Date(), 1) } };
      },
    },
  },
  passkeyRegistrationOptions: {
    success: async (world) => {
      const { accessToken: token, password } = await world.verified();
      return { token, body: { currentpassword: password } };
    },
    error: {
      code: 'EMAIL_NOT_VERIFIED',
      call: async (world) => {
        const { accessToken: token, password } = await world.account();
        return { token, body: { currentpassword: password } };
      },
    },
  },
  addPasskey: {
    success: async (world) => {
      const { accessToken: token, password } = await world.verified();
      const options = await request('POST', '/auth/passkeys/registration-options', { token, body: { currentpassword: password } });
      return { token, body: { response: new SoftAuthenticator('http://localhost:5173').create(options.body.data), name: 'Phone' } };
    },
    error: { code: 'PASSKEY_REJECTED', call: async (world) => ({ token: (await world.verified()).accessToken, body: { response: {} } }) },
  },
  renamePasskey: {
    success: async (world) => {
      const { accessToken: token, passkeyId } = await world.withPasskey();
      return { token, path: `/auth/passkeys/${passkeyId}`, body: { name: 'Work laptop' } };
    },
    error: { code: 'PASSKEY_NOT_FOUND', call: async (world) => ({ token: (await world.account()).accessToken, path: '/auth/passkeys/not-a-passkey', body: { name: 'x' } }) },
  },
  removePasskey: {
    success: async (world) => {
      const { accessToken: token, passkeyId } = await world.withPasskey();
      return { token, path: `/auth/passkeys/${passkeyId}` };
    },
    error: { code: 'PASSKEY_NOT_FOUND', call: async (world) => ({ token: (await world.account()).accessToken, path: '/auth/passkeys/not-a-passkey' }) },
  },
  passkeyAuthenticationOptions: {
    success: () => Promise.resolve({}),
    error: { code: 'INVALID_TOKEN', call: () => Promise.resolve({ token: 'not-a-token' }) },
  },
  signInPasskey: {
    success: async (world) => {
      const { passkeyId, authenticator } = await world.withPasskey();
      const options = await request('POST', '/auth/passkeys/authentication-options', {});
      return { body: { response: authenticator.get(options.body.data, passkeyId) } };
    },
    error: { code: 'PASSKEY_REJECTED', call: () => Promise.resolve({ body: { response: {} } }) },
  },
  authorizeOauth: {
    success: () => Promise.resolve({ path: '/auth/oauth/corp/authorize', query: flowQuery(aPkcePair().challenge) }),
    error: { code: 'PROVIDER_NOT_FOUND', call: () => Promise.resolve({ path: '/auth/oauth/nobody/authorize', query: flowQuery(aPkcePair().challenge) }) },
  },
  oauthCallback: {
    success: async (world) => ({ path: '/auth/oauth/corp/callback', query: (await world.providerCallback()).query }),
    error: { code: 'INVALID_INPUT', call: () => Promise.resolve({ path: '/auth/oauth/corp/callback', query: '?state=not-a-flow&code=x' }) },
  },
  exchangeOauthCode: {
    success: async (world) => {
      const { code, verifier } = await world.oauthCode();
      return { body: { code, code_verifier: verifier } };
    },
    error: { code: 'INVALID_INPUT', call: () => Promise.resolve({ body: { code: 'not-a-code', code_verifier: aPkcePair().verifier } }) },
  },
  linkIdentity: {
    success: async (world) => {
      const { accessToken, password } = await world.verified();
      return { path: '/auth/oauth/corp/link', token: accessToken, body: { ...flowBody(aPkcePair().challenge), currentpassword: password } };
    },
    error: { code: 'EMAIL_NOT_VERIFIED', call: async (world) => {
      const { accessToken, password } = await world.account();
      return { path: '/auth/oauth/corp/link', token: accessToken, body: { ...flowBody(aPkcePair().challenge), currentpassword: password } };
    } },
  },
  reauthenticate: {
    success: async (world) => ({ path: '/auth/oauth/corp/reauthenticate', token: (await world.verified()).accessToken, body: { ...flowBody(aPkcePair().challenge), action: 'delete-account' } }),
    error: { code: 'PROVIDER_NOT_FOUND', call: async (world) => ({ path: '/auth/oauth/nobody/reauthenticate', token: (await world.verified()).accessToken, body: { ...flowBody(aPkcePair().challenge), action: 'delete-account' } }) },
  },
  requestEmailChange: {
    success: async (world) => {
      const { accessToken, password } = await world.verified();
      return { token: accessToken, body: { newemail: `moved-${randomUUID()}@example.com`, currentpassword: password } };
    },
    error: { code: 'INVALID_INPUT', call: async (world) => {
      const { accessToken, password } = await world.verified();
      return { token: accessToken, body: { newemail: 'not an address', currentpassword: password } };
    } },
  },
  confirmEmailChange: {
    success: async (world) => ({ body: { token: await world.mailedToken((await world.movingAccount()).newEmail, 'Confirm your new e-mail address') } }),
    error: { code: 'INVALID_INPUT', call: () => Promise.resolve({ body: { token: 'email-change1.not-a-token' } }) },
  },
  cancelEmailChange: {
    success: async (world) => ({ body: { token: await world.mailedToken((await world.movingAccount()).email, 'Your e-mail address is about to change') } }),
    error: { code: 'INVALID_INPUT', call: () => Promise.resolve({ body: { token: 'email-cancel1.not-a-token' } }) },
  },
  revertEmailChange: {
    success: async (world) => {
      const moving = await world.movingAccount();
      await request('POST', '/auth/email/confirm', { body: { token: await world.mailedToken(moving.newEmail, 'Confirm your new e-mail address') } });
      return { body: { token: await world.mailedToken(moving.email, 'Your e-mail address was changed') } };
    },
    error: { code: 'INVALID_INPUT', call: () => Promise.resolve({ body: { token: 'email-revert1.not-a-token' } }) },
  },
  deleteAccount: {
    success: async (world) => {
      const { accessToken, password } = await world.account();
      return { token: accessToken, body: { currentpassword: password } };
    },
    error: { code: 'INVALID_INPUT', call: async (world) => ({ token: (await world.account()).accessToken, body: { currentpassword: 'not the password' } }) },
  },
  unlinkIdentity: {
    success: async (world) => {
      const account = await world.verified();
      const pair = aPkcePair();
      const link = await request('POST', '/auth/oauth/corp/link', { token: account.accessToken, body: { ...flowBody(pair.challenge), currentpassword: account.password } });
      const { query, verifier } = await world.providerCallback({ url: link.body.data.url, verifier: pair.verifier });
      const code = new URL(String((await request('GET', '/auth/oauth/corp/callback', { query })).headers['location'])).searchParams.get('code');
      expect((await request('POST', '/auth/oauth/token', { body: { code, code_verifier: verifier } })).status).to.equal(201);
      const [identity] = (await request('GET', '/auth/identities', { token: account.accessToken })).body.data.identities as { id: string }[];
      return { token: account.accessToken, path: `/auth/identities/${identity?.id ?? ''}` };
    },
    error: { code: 'IDENTITY_NOT_FOUND', call: async (world) => ({ token: (await world.account()).accessToken, path: '/auth/identities/not-an-identity' }) },
  },
  resendVerificationEmail: { success: async (world) => ({ token: (await world.account()).accessToken }), error: needsToken },
  getJwks: { success: () => Promise.resolve({}), error: null },
  adminListUsers: {
    success: async (world) => ({ token: await adminKey('users:read'), query: `?query=${encodeURIComponent((await world.account()).email)}` }),
    error: { code: 'INVALID_CURSOR', call: async () => ({ token: await adminKey('users:read'), query: '?cursor=bm90LWEtY3Vyc29y' }) },
  },
  adminGetUser: {
    success: async (world) => ({ token: await adminKey('users:read'), path: `/admin/users/${await idOf(world)}` }),
    error: { code: 'USER_NOT_FOUND', call: async () => ({ token: await adminKey('users:read'), path: '/admin/users/no-such-user' }) },
  },
  adminGetUserActivity: {
    success: async (world) => ({ token: await adminKey('users:read'), path: `/admin/users/${await idOf(world)}/activity` }),
    error: { code: 'USER_NOT_FOUND', call: async () => ({ token: await adminKey('users:read'), path: '/admin/users/no-such-user/activity' }) },
  },
  adminDisableUser: {
    success: async (world) => ({ token: await adminKey('users:write'), path: `/admin/users/${await idOf(world)}/disable` }),
    error: { code: 'INSUFFICIENT_SCOPE', call: async (world) => ({ token: await adminKey('users:read'), path: `/admin/users/${await idOf(world)}/disable` }) },
  },
  adminEnableUser: {
    success: async (world) => ({ token: await adminKey('users:write'), path: `/admin/users/${await idOf(world)}/enable` }),
    error: { code: 'USER_NOT_FOUND', call: async () => ({ token: await adminKey('users:write'), path: '/admin/users/no-such-user/enable' }) },
  },
  adminSignOutUser: {
    success: async (world) => ({ token: await adminKey('users:write'), path: `/admin/users/${await idOf(world)}/sign-out` }),
    error: { code: 'MISSING_TOKEN', call: async (world) => ({ path: `/admin/users/${await idOf(world)}/sign-out` }) },
  },
  adminRemoveMfa: {
    success: async (world) => {
      const account = await world.withSecondFactor();
      return { token: await adminKey('users:write'), path: `/admin/users/${(await request('GET', '/auth/me', { token: account.accessToken })).body.data.user.id}/mfa` };
    },
    error: { code: 'MFA_NOT_ENROLLED', call: async (world) => ({ token: await adminKey('users:write'), path: `/admin/users/${await idOf(world)}/mfa` }) },
  },
  adminDeleteUser: {
    success: async (world) => ({ token: await adminKey('users:write'), path: `/admin/users/${await idOf(world)}` }),
    error: { code: 'USER_NOT_FOUND', call: async () => ({ token: await adminKey('users:write'), path: '/admin/users/no-such-user' }) },
  },
  introspectToken: {
    success: async (world) => ({ token: (await apiKeyFor(service.dataDir, 'introspect')).key, body: { token: (await world.account()).accessToken } }),
    error: { code: 'INSUFFICIENT_SCOPE', call: async () => ({ token: (await apiKeyFor(service.dataDir, 'users:read')).key, body: { token: 'anything' } }) },
  },
};

/**
 * The scenario of an operation that takes nothing but a signed-in account (bearer, no body, parameters or query):
 * derived, so such an operation (GET /auth/me, GET /auth/sessions, ...) needs no entry above.
 */
const scenarioOf = (operation: AnyOperation): Scenario | undefined =>
  SCENARIOS[operation.operationId] ??
  (operation.auth === 'bearer' && !operation.body && !operation.params && !operation.query
    ? { success: async (world) => ({ token: (await world.account()).accessToken }), error: needsToken }
    : undefined);

let service: TestService;
/** One API key per scope, made once by the admin command line on the service's store. */
const adminKeys = new Map<string, Promise<string>>();
const adminKey = (scope: string): Promise<string> => {
  if (!adminKeys.has(scope)) adminKeys.set(scope, apiKeyFor(service.dataDir, scope).then((made) => made.key));
  return adminKeys.get(scope) as Promise<string>;
};
/** The id of a new account. */
const idOf = async (world: World): Promise<string> => (await request('GET', '/auth/me', { token: (await world.account()).accessToken })).body.data.user.id;
let inbox: SmtpInbox;
let provider: OidcTestProvider;
/** The redirect URI registered at the test provider: the test plays the browser, so it need not resolve. */
const API = 'http://accounts.test';

async function request(method: string, path: string, call: Call, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return http(service.url, `${path}${call.query ?? ''}`, {
    method,
    ...(call.body === undefined ? {} : { body: call.body }),
    headers: {
      ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(call.token === undefined ? {} : { authorization: `Bearer ${call.token}` }),
      ...headers,
    },
  });
}

const world: World = {
  account: async () => {
    const email = `ada-${randomUUID()}@example.com`;
    const body = aSignUpBody({ email });
    const res = await request('POST', '/auth/sign-up', { body });
    expect(res.status, res.text).to.equal(201);
    return { email, password: body['password'] as string, accessToken: res.body.data.accesstoken, refreshToken: res.body.data.refreshtoken };
  },
  verified: async () => {
    const account = await world.account();
    const verified = await request('POST', '/auth/verify-email', { body: { token: await world.mailedToken(account.email, 'Confirm your e-mail address') } });
    expect(verified.status, verified.text).to.equal(200);
    return account;
  },
  withSecondFactor: async () => {
    const account = await world.verified();
    const token = account.accessToken;
    const secret: string = (await request('POST', '/auth/mfa/totp', { token, body: { currentpassword: account.password } })).body.data.secret;
    const confirmed = await request('POST', '/auth/mfa/totp/confirm', { token, body: { code: codeOf(secret, new Date()) } });
    expect(confirmed.status, confirmed.text).to.equal(200);
    return { ...account, secret, recoveryCodes: confirmed.body.data.recoverycodes };
  },
  steppedUp: async (account) => {
    const raised = await request('POST', '/auth/mfa/verify', { token: account.accessToken, body: { recoverycode: account.recoveryCodes[0] } });
    expect(raised.status, raised.text).to.equal(200);
    return raised.body.data.accesstoken;
  },
  withPasskey: async <A extends Account>(given?: A) => {
    const account = given ?? ((await world.verified()) as A);
    const authenticator = new SoftAuthenticator('http://localhost:5173');
    const options = await request('POST', '/auth/passkeys/registration-options', { token: account.accessToken, body: { currentpassword: account.password } });
    const added = await request('POST', '/auth/passkeys', { token: account.accessToken, body: { response: authenticator.create(options.body.data), name: 'Laptop' } });
    expect(added.status, added.text).to.equal(201);
    return { ...account, passkeyId: added.body.data.passkey.id, authenticator };
  },
  movingAccount: async () => {
    const account = await world.verified();
    const newEmail = `moving-${randomUUID()}@example.com`;
    const asked = await request('POST', '/auth/email', { token: account.accessToken, body: { newemail: newEmail, currentpassword: account.password } });
    expect(asked.status, asked.text).to.equal(202);
    return { ...account, newEmail };
  },
  providerCallback: async (linkUrl) => {
    const pair = linkUrl ?? { ...aPkcePair(), url: undefined };
    const url = linkUrl?.url ?? String((await request('GET', '/auth/oauth/corp/authorize', { query: flowQuery((pair as { challenge: string }).challenge) })).headers['location']);
    const subject = randomUUID();
    provider.setAccount(subject, { email: `social-${subject}@example.com`, email_verified: true });
    return { query: (await provider.signIn(url, subject)).search, verifier: pair.verifier };
  },
  oauthCode: async () => {
    const { query, verifier } = await world.providerCallback();
    const landed = await request('GET', '/auth/oauth/corp/callback', { query });
    return { code: new URL(String(landed.headers['location'])).searchParams.get('code') ?? '', verifier };
  },
  mailedToken: async (email, subject) => {
    await service.deliverMail();
    const mail = inbox.received.filter((received) => received.envelopeTo.includes(email) && received.parsed.subject === subject).at(-1);
    return tokenInText(mail?.parsed.text);
  },
};

/** The document's path for a declared one (`/auth/sessions/:id` is `/auth/sessions/{id}` there). */
const documentPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

describe('HTTP: every declared operation, from its declaration: one success and one documented error on the real service', function () {
  this.timeout(30_000);
  let doc: OpenApiDocument;
  before(async () => {
    inbox = await startSmtpInbox();
    provider = await startOidcTestProvider({ redirectUris: [`${API}/auth/oauth/corp/callback`] });
    service = await startTestService({
      SMTP_URL: inbox.url, MAIL_POLL_INTERVAL_MS: '60000', RATE_LIMIT_MAX: '10000', PASSWORD_RESET_RATE_LIMIT_MAX: '10000',
      PUBLIC_API_URL: API, PUBLIC_APP_URL: 'http://localhost:5173', OAUTH_PROVIDERS: 'corp', OAUTH_REDIRECT_URLS: APP_URL,
      OAUTH_CORP_ISSUER: provider.issuer, OAUTH_CORP_CLIENT_ID: provider.clientId, OAUTH_CORP_CLIENT_SECRET: provider.clientSecret,
    });
    doc = (await http(service.url, '/docs/json', { method: 'GET' })).body;
  });
  after(async () => {
    await service?.dispose();
    await inbox?.close();
    await provider?.close();
  });

  it('has a scenario, written or derived, for every operation of the list, and none for an operation that is not in it', () => {
    expect(SERVICE_OPERATIONS.filter((op) => scenarioOf(op) === undefined).map((op) => op.operationId)).to.deep.equal([]);
    expect(Object.keys(SCENARIOS).filter((id) => !SERVICE_OPERATIONS.some((op) => op.operationId === id))).to.deep.equal([]);
  });

  it("POST /auth/sign-in of an account with TOTP and a passkey: its 202 names webauthn among the methods, as documented", async () => {
    const account = await world.withSecondFactor();
    await world.withPasskey({ ...account, accessToken: await world.steppedUp(account) });
    const res = await request('POST', '/auth/sign-in', { body: { email: account.email, password: account.password } });
    expect(res.status, res.text).to.equal(202);
    expect(res.body.message).to.equal('Second factor required');
    expect(res.body.data.methods).to.deep.equal(['totp', 'recovery_code', 'webauthn']);
    expect(undocumented(doc, '/auth/sign-in', 'post', res)).to.deep.equal([]);
  });

  it('answers SHUTTING_DOWN (503, Connection: close) on every operation once the server is stopping, as each documents', async () => {
    const shutdown = new ShutdownState();
    const app = buildHttpServer(httpServerOptions(createLogger('silent'), { operations: { shutdown } }));
    try {
      await app.ready();
      shutdown.stop();
      for (const operation of SERVICE_OPERATIONS) {
        const url = operation.path.replace(/:([A-Za-z]+)/g, randomUUID());
        const res = await app.inject({ method: operation.method, url, headers: { 'content-type': 'application/json' }, payload: '{}' });
        expect(res.statusCode, `${operation.method} ${operation.path}`).to.equal(ERROR_TABLE.SHUTTING_DOWN.status);
        expect(impliedErrors(operation)).to.include('SHUTTING_DOWN');
        const schema = responseSchema(doc, documentPath(operation.path), operation.method.toLowerCase(), res.statusCode);
        expect(schema, `${operation.method} ${operation.path}: 503 documented`).to.not.equal(undefined);
        expect(schemaErrors(schema, res.json()), `${operation.method} ${operation.path}`).to.equal(null);
      }
    } finally {
      await app.close();
    }
  });

  for (const operation of SERVICE_OPERATIONS) {
    const scenario = scenarioOf(operation);
    const label = `${operation.method} ${operation.path}`;

    it(`${label}: answers its declared success, as documented, and replaces a malformed X-Request-Id`, async () => {
      if (!scenario) throw new Error(`no scenario for ${operation.operationId}`);
      const call = await scenario.success(world);
      const res = await request(operation.method, call.path ?? operation.path, call, { 'x-request-id': 'not a sane id!' });
      expect(res.status, res.text).to.equal(operation.success.status);
      if ('message' in operation.success) expect(res.body.message).to.equal(operation.success.message);
      expect(res.headers['x-request-id']).to.be.a('string').and.not.equal('not a sane id!');
      if (res.status === 204 || res.status === 302) {
        expect(res.text).to.equal('');
        expect(doc['paths'][documentPath(operation.path)][operation.method.toLowerCase()].responses[String(res.status)]).to.be.an('object');
        if (res.status === 302) expect(res.headers['location']).to.match(/^https?:\/\//);
      } else expect(undocumented(doc, documentPath(operation.path), operation.method.toLowerCase(), res)).to.deep.equal([]);
    });

    if (scenario?.error === null) continue;

    it(`${label}: answers ${scenario?.error?.code ?? 'a documented error'} with its row of the error table`, async () => {
      const error = scenario?.error;
      if (!error) throw new Error(`no error scenario for ${operation.operationId}`);
      const { code, call } = error;
      const sent = await call(world);
      const res = await request(operation.method, sent.path ?? operation.path, sent);
      const row = code in ERROR_TABLE ? ERROR_TABLE[code as ErrorCode] : operation.ownErrors?.[code];
      expect(row, `${code}: a row of the core's table or one the operation declares`).to.not.equal(undefined);
      expect(res.status, res.text).to.equal(row?.status);
      expect(res.body.message).to.equal(row?.message);
      expect([...impliedErrors(operation), ...operation.errors, ...Object.keys(operation.ownErrors ?? {})], 'the code is one the declaration answers').to.include(code);
      expect(undocumented(doc, documentPath(operation.path), operation.method.toLowerCase(), res)).to.deep.equal([]);
    });
  }
});
