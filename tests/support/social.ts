import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../../src/application/shared/principal.js';
import { aRequestMetadata } from './builders.js';
import type { FakeUser } from './fake-providers.js';
import type { inMemoryWorld } from './in-memory-world.js';

type World = Awaited<ReturnType<typeof inMemoryWorld>>;

export const APP_URL = 'https://app.example/signed-in';

/** The app's PKCE pair: a random verifier and its S256 challenge, as an app computes them. */
export const aPkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** What a flow request carries, with the app's challenge (overridable). */
export const aFlowRequest = (challenge: string, overrides: Record<string, unknown> = {}) => ({
  provider: 'corp', redirectTo: APP_URL, codeChallenge: challenge, codeChallengeMethod: 'S256', ...overrides,
});

/** The `state` a provider's authorization URL carries. */
export const stateOf = (location: string): string => new URL(location).searchParams.get('state') ?? '';

/** The query parameters of the URL the app is sent back to. */
export const returned = (location: string): Record<string, string> => Object.fromEntries(new URL(location).searchParams);

/**
 * Goes through a provider's flow as a browser would: the start (a sign-in, or a link for `link`), the user's sign-in
 * at the (fake) provider, the callback (and, for a link, the app's exchange that links); answers where the app is sent
 * back to and the app's verifier.
 */
export async function throughProvider(
  world: World,
  user: FakeUser,
  options: { readonly provider?: string; readonly link?: Principal; readonly password?: string; readonly proof?: { readonly oauthCode?: string | undefined; readonly codeVerifier?: string } } = {},
) {
  const pkce = aPkcePair();
  const provider = options.provider ?? 'corp';
  const request = aFlowRequest(pkce.challenge, { provider });
  const started = options.link
    ? await world.linkIdentity.execute({ ...request, principal: options.link, currentPassword: options.password ?? 'analytical engine 1843', ...options.proof, metadata: aRequestMetadata() })
    : await world.beginOauth.execute(request);
  const state = stateOf(started.location);
  const back = await world.completeOauth.execute({ provider, query: world.providers.signIn(provider, state, user), metadata: aRequestMetadata() });
  const params = returned(back.location);
  // A link completes only at the app's exchange with its verifier: the app does it at once.
  const exchanged = options.link && params['code'] !== undefined
    ? await world.redeemOauthCode.execute({ code: params['code'], codeVerifier: pkce.verifier, metadata: aRequestMetadata() })
    : null;
  return { location: back.location, params, verifier: pkce.verifier, state, exchanged };
}

/** A whole social sign-in: through the provider, then the app's exchange of the code. */
export async function socialSignIn(world: World, user: FakeUser, options: { readonly provider?: string } = {}) {
  const { params, verifier } = await throughProvider(world, user, options);
  if (params['code'] === undefined) throw new Error(`the flow ended in error=${params['error']}`);
  return world.redeemOauthCode.execute({ code: params['code'], codeVerifier: verifier, metadata: aRequestMetadata() });
}

/**
 * A provider re-authentication of `principal`'s holder for `action`, as the app does it: the start, the user's new
 * sign-in at the (fake) provider as `user`, the callback; the proof the action's request then carries.
 */
export async function reauthenticated(world: World, principal: Principal, user: FakeUser, action: string, provider = 'corp') {
  const pkce = aPkcePair();
  const started = await world.reauthenticate.execute({ ...aFlowRequest(pkce.challenge, { provider }), principal, action });
  const back = await world.completeOauth.execute({ provider, query: world.providers.signIn(provider, stateOf(started.location), user), metadata: aRequestMetadata() });
  const params = returned(back.location);
  return { params, oauthCode: params['code'], codeVerifier: pkce.verifier };
}
