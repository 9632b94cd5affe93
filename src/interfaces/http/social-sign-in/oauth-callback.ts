import { FLOW_RETURN, providerParams } from './oauth-docs.js';
import { defineSocialOperation } from './define-operation.js';

const textValues = (query: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries((query ?? {}) as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

export const oauthCallback = defineSocialOperation({
  method: 'GET',
  path: '/auth/oauth/:provider/callback',
  operationId: 'oauthCallback',
  summary: "The identity provider's redirect back (register {PUBLIC_API_URL}/auth/oauth/{provider}/callback at the provider)",
  description: 'The flow is found by `state`, once; an unknown, used or expired state, or one started at another provider, answers 400 JSON and redirects nowhere.',
  tag: 'social',
  auth: 'none',
  hashes: false,
  params: providerParams,
  query: {
    type: 'object',
    required: ['state'],
    properties: {
      state: { type: 'string' },
      code: { type: 'string' },
      iss: { type: 'string', description: 'RFC 9207: checked where the provider sends it' },
      error: { type: 'string' },
    },
  },
  success: { status: 302, redirect: true, description: FLOW_RETURN },
  errors: ['INVALID_INPUT', 'STORE_UNAVAILABLE'],
  run: ({ params, query, meta }, { completeOauth }) => completeOauth.execute({ provider: params['provider'] ?? '', query: textValues(query), metadata: meta }),
});
