import * as client from 'openid-client';
import { ProviderFailed } from '../../../application/social-sign-in/errors.js';
import type { ProviderProfile } from '../../../application/social-sign-in/ports/identity-providers.port.js';
import type { OAuthProviderSettings } from '../oauth-settings.js';
import { isRecord } from './provider-failures.js';

/** A claim that is a non-empty string, else null. */
export const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * How this client authenticates at the token endpoint: `client_secret_basic` where the server allows it (or says
 * nothing), else `client_secret_post`; a public client (no secret) sends its id alone.
 */
export function clientAuthOf(secret: string | undefined): client.ClientAuth {
  if (secret === undefined) return client.None();
  const basic = client.ClientSecretBasic(secret);
  const post = client.ClientSecretPost(secret);
  return (server, metadata, body, headers) => {
    const methods = server.token_endpoint_auth_methods_supported;
    const chosen = methods === undefined || methods.includes('client_secret_basic') ? basic : post;
    chosen(server, metadata, body, headers);
  };
}

/**
 * GitHub's OAuth 2 server as openid-client sees it, from static metadata (GitHub publishes no discovery document):
 * its authorize and token endpoints under `settings.issuer`, the client secret sent in the form body, the deadline
 * of every call `timeoutSeconds`.
 */
export function gitHubConfiguration(settings: OAuthProviderSettings, timeoutSeconds: number, allowHttp: boolean): client.Configuration {
  const config = new client.Configuration(
    {
      issuer: settings.issuer,
      authorization_endpoint: `${settings.issuer}/login/oauth/authorize`,
      token_endpoint: `${settings.issuer}/login/oauth/access_token`,
      token_endpoint_auth_methods_supported: ['client_secret_post'],
    },
    settings.clientId,
    settings.clientSecret,
    clientAuthOf(settings.clientSecret),
  );
  config.timeout = timeoutSeconds;
  const plain = [settings.issuer, settings.apiUrl].some((url) => url.startsWith('http:'));
  if (allowHttp && plain) client.allowInsecureRequests(config);
  return config;
}

const apiGet = async (config: client.Configuration, accessToken: string, url: string): Promise<unknown> => {
  const headers = new Headers({ accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' });
  const response = await client.fetchProtectedResource(config, accessToken, new URL(url), 'GET', undefined, headers);
  if (response.status >= 500) throw new ProviderFailed('temporarily_unavailable');
  if (!response.ok) throw new ProviderFailed('invalid_response');
  return response.json();
};

/**
 * Completes a GitHub flow: exchanges the code (PKCE S256, the flow's state checked), then reads `GET /user` (the
 * subject is its numeric id) and `GET /user/emails` (the address is the primary one GitHub verified; none: null).
 * Throws what openid-client or fetch throws, or ProviderFailed for an API answer that is not usable.
 */
export async function completeGitHub(
  config: client.Configuration,
  settings: OAuthProviderSettings,
  currentUrl: URL,
  checks: { readonly state: string; readonly verifier: string },
): Promise<ProviderProfile> {
  const tokens = await client.authorizationCodeGrant(config, currentUrl, {
    pkceCodeVerifier: checks.verifier,
    expectedState: checks.state,
    idTokenExpected: false,
  });
  const user = await apiGet(config, tokens.access_token, `${settings.apiUrl}/user`);
  if (!isRecord(user) || !(typeof user.id === 'number' || typeof user.id === 'string')) throw new ProviderFailed('invalid_response');
  const emails = await apiGet(config, tokens.access_token, `${settings.apiUrl}/user/emails`);
  const primary = (Array.isArray(emails) ? emails : []).find(
    (entry): entry is { email: string } => isRecord(entry) && entry.primary === true && entry.verified === true && textOf(entry.email) !== null,
  );
  return {
    issuer: settings.issuer,
    subject: String(user.id),
    email: primary?.email ?? null,
    emailVerified: primary !== undefined,
    givenName: null,
    familyName: null,
    name: textOf(user.name),
  };
}
