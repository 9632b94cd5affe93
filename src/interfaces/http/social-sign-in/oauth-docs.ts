import { OAUTH_CODE_SECONDS, OAUTH_FLOW_SECONDS } from '../../../application/social-sign-in/social-sign-in-use-cases.js';
import type { JsonSchema } from '../shared/yup-json-schema.js';

/** The provider's name in a path: one of OAUTH_PROVIDERS. */
export const providerParams: JsonSchema = {
  type: 'object',
  required: ['provider'],
  properties: { provider: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,31}$', description: 'An identity provider configured in OAUTH_PROVIDERS (`google`, `github`, ...)' } },
};

/** What starts a flow, in a query string (authorize) or a JSON body (link). */
export const flowFields = {
  redirect_to: { type: 'string', format: 'uri', description: 'Where the flow returns to: one of OAUTH_REDIRECT_URLS exactly (scheme, host, port, path); its own query is kept' },
  code_challenge: { type: 'string', pattern: '^[A-Za-z0-9_-]{43,128}$', description: "The app's PKCE challenge: BASE64URL(SHA-256(code_verifier)), 43 to 128 characters" },
  code_challenge_method: { type: 'string', const: 'S256', description: 'S256 only' },
} as const satisfies Readonly<Record<string, JsonSchema>>;

/** How the redirects of a flow end, as the app reads them on its `redirect_to`. */
export const FLOW_RETURN =
  `The app's redirect_to, with \`code\` (one use, ${OAUTH_CODE_SECONDS} s, redeemed at POST /auth/oauth/token with the app's code_verifier) or ` +
  '`error`: `access_denied` (refused at the provider, or the linking session ended), `account_exists` (an account holds the address and one of the two did not prove it), ' +
  '`identity_in_use` (linked to another account), `identity_limit`, `email_required` (the provider shows no usable address), `invalid_response` (its answer failed a check), ' +
  '`temporarily_unavailable` (it cannot be reached)';

export const FLOW_LIFETIME = `A flow waits ${OAUTH_FLOW_SECONDS} s for its callback`;
