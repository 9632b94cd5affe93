import { SOCIAL_SIGN_IN_ERRORS } from './errors.js';
import { FLOW_LIFETIME, flowFields, providerParams } from './oauth-docs.js';
import { defineSocialOperation } from './define-operation.js';

export const authorizeOauth = defineSocialOperation({
  method: 'GET',
  path: '/auth/oauth/:provider/authorize',
  operationId: 'authorizeOauth',
  summary: 'Start a sign-in with an identity provider: the browser goes to the provider',
  description: `${FLOW_LIFETIME}. Errors answer JSON and never redirect to a URL outside OAUTH_REDIRECT_URLS.`,
  tag: 'social',
  auth: 'none',
  hashes: false,
  params: providerParams,
  query: { type: 'object', required: ['redirect_to', 'code_challenge', 'code_challenge_method'], properties: flowFields },
  success: {
    status: 302,
    redirect: true,
    description: "To the provider's authorization endpoint (code flow, state, nonce, the service's own PKCE); while the provider is down, to redirect_to?error=temporarily_unavailable",
  },
  errors: ['INVALID_INPUT', 'STORE_UNAVAILABLE'],
  ownErrors: { PROVIDER_NOT_FOUND: SOCIAL_SIGN_IN_ERRORS.PROVIDER_NOT_FOUND },
  run: ({ params, query }, { beginOauth }) => {
    const q = (query ?? {}) as Record<string, unknown>;
    return beginOauth.execute({ provider: params['provider'] ?? '', redirectTo: q['redirect_to'], codeChallenge: q['code_challenge'], codeChallengeMethod: q['code_challenge_method'] });
  },
});
