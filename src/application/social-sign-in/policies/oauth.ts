import { type Parsed, invalid, rawText, requireAll, valid } from '../../../domain/validation.js';
import { ProviderFailed, ProviderNotFound } from '../errors.js';
import type { SocialSignInPorts } from '../ports/social-sign-in-ports.js';
import { OAUTH_FLOW_SECONDS, type OAuthFlow } from '../ports/oauth-flow-repository.port.js';

/** Where flows may return (OAUTH_REDIRECT_URLS): each compared exactly in scheme, host, port and path. */
export interface OAuthPolicySettings {
  readonly redirectUrls: readonly string[];
}

/** What starts a flow: the provider, where the app wants it back, and the app's own PKCE challenge. */
export interface FlowRequest {
  readonly provider: string;
  readonly redirectTo: unknown;
  readonly codeChallenge: unknown;
  readonly codeChallengeMethod: unknown;
}

/** Where a flow went: the provider's authorization URL, or the app's URL with `error` when the provider is down. */
export interface FlowStarted {
  readonly location: string;
}

const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43,128}$/;

/** The part of a URL a flow's return is matched on (the query is the app's and is kept; a fragment is refused). */
const placeOf = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`;

/**
 * `redirect_to` if it is one of the allowed URLs, exactly in scheme, host, port and path (a look-alike host, another
 * port or path, user info or a fragment is refused), its own query kept.
 */
export function allowedRedirect(raw: unknown, settings: OAuthPolicySettings): Parsed<string> {
  const text = rawText('redirect_to', raw === '' ? undefined : raw);
  if (!text.ok) return text;
  let url: URL;
  try {
    url = new URL(text.value);
  } catch {
    return invalid('redirect_to', 'INVALID_FORMAT', 'must be an absolute URL');
  }
  const allowed = settings.redirectUrls.some((entry) => placeOf(new URL(entry)) === placeOf(url));
  if (!allowed || url.hash !== '' || url.username !== '' || url.password !== '') return invalid('redirect_to', 'NOT_ALLOWED', 'is not an allowed return URL (OAUTH_REDIRECT_URLS)');
  return valid(url.href);
}

/** The app's PKCE challenge: S256 only, 43 to 128 base64url characters. */
export function appChallenge(challenge: unknown, method: unknown): Parsed<string> {
  const text = rawText('code_challenge', challenge === '' ? undefined : challenge);
  const parsed = text.ok && !PKCE_CHALLENGE.test(text.value) ? invalid<string>('code_challenge', 'INVALID_FORMAT', 'must be 43 to 128 base64url characters') : text;
  if (method === 'S256') return parsed;
  // Both fields' issues at once, as every 400 lists every offending field.
  return { ok: false, issues: [{ field: 'code_challenge_method', code: 'NOT_ONE_OF', message: 'must be S256' }, ...(parsed.ok ? [] : parsed.issues)] };
}

/** The app's URL with these parameters added to its own query. */
export function returnTo(redirectTo: string, params: Readonly<Record<string, string>>): string {
  const url = new URL(redirectTo);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}

/** A flow's request, checked: a configured provider, an allowed return URL, the app's S256 challenge. */
export interface CheckedFlowRequest {
  readonly provider: string;
  readonly redirectTo: string;
  readonly codeChallenge: string;
}

/** Checks a flow's request: ProviderNotFound, or InvalidInput on `redirect_to` and the challenge, every issue at once. */
export function checkFlowRequest(deps: Pick<SocialSignInPorts, 'providers'>, settings: OAuthPolicySettings, request: FlowRequest): CheckedFlowRequest {
  if (!deps.providers.has(request.provider)) throw new ProviderNotFound();
  const { redirectTo, codeChallenge } = requireAll({
    redirectTo: allowedRedirect(request.redirectTo, settings),
    codeChallenge: appChallenge(request.codeChallenge, request.codeChallengeMethod),
  });
  return { provider: request.provider, redirectTo, codeChallenge };
}

/**
 * Starts a checked flow: stores it under its state's fingerprint and answers the provider's authorization URL; while
 * the provider cannot be reached, the app's URL with `error=temporarily_unavailable` (nothing stored).
 */
export async function startFlow(
  deps: Pick<SocialSignInPorts, 'providers' | 'oauthFlows' | 'clock'>,
  request: CheckedFlowRequest,
  linkTo: OAuthFlow['linkTo'],
  reauth?: OAuthFlow['reauth'],
): Promise<FlowStarted> {
  const { providers, oauthFlows, clock } = deps;
  const state = providers.newHandle();
  let location: string;
  try {
    location = await providers.authorizationUrl(request.provider, state, { fresh: reauth !== undefined });
  } catch (error) {
    if (error instanceof ProviderFailed) return { location: returnTo(request.redirectTo, { error: error.reason }) };
    throw error;
  }
  const at = clock.now();
  const expiresAt = new Date(at.getTime() + OAUTH_FLOW_SECONDS * 1000);
  await oauthFlows.open({ id: providers.idOf(state), ...request, linkTo, ...(reauth ? { reauth } : {}), createdAt: at, expiresAt });
  return { location };
}
