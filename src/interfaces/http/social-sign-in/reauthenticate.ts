import { SOCIAL_SIGN_IN_ERRORS } from './errors.js';
import { object } from 'yup';
import { REAUTH_ACTIONS } from '../../../application/registry.js';
import { FLOW_RETURN, flowFields, providerParams } from './oauth-docs.js';
import { defineSocialOperation } from './define-operation.js';
import { text } from '../shared/request-body.js';

export const reauthenticate = defineSocialOperation({
  method: 'POST',
  path: '/auth/oauth/:provider/reauthenticate',
  operationId: 'reauthenticate',
  summary: 'An account without a password proves its holder for one action by a new sign-in at a provider it is linked to',
  description:
    `The provider is asked for a new sign-in (prompt=login, max_age=0). The callback accepts only an identity of this account signed in since the flow began (else error=access_denied or login_required) and sends redirect_to a one-time \`code\`: not a sign-in, but the proof the action's request then carries as \`oauthcode\` with \`code_verifier\` (one use, 60 s, this session and this action only). ${FLOW_RETURN}.`,
  tag: 'social',
  auth: 'bearer',
  hashes: false,
  params: providerParams,
  body: {
    schema: object({ redirect_to: text(), code_challenge: text(), code_challenge_method: text(), action: text() }),
    docs: { ...flowFields, action: { enum: [...REAUTH_ACTIONS], description: 'What the proof is for: the request that will carry the code' } },
  },
  success: {
    status: 200,
    message: 'Re-authentication started',
    description: 'Send the browser to `url`; the flow returns to redirect_to with `code` (or `error`)',
    data: { type: 'object', required: ['url'], additionalProperties: false, properties: { url: { type: 'string', format: 'uri' } } },
  },
  errors: ['STORE_UNAVAILABLE'],
  ownErrors: { PROVIDER_NOT_FOUND: SOCIAL_SIGN_IN_ERRORS.PROVIDER_NOT_FOUND },
  run: async ({ params, body, principal }, { reauthenticate }) => {
    const started = await reauthenticate.execute({
      provider: params['provider'] ?? '', redirectTo: body.redirect_to, codeChallenge: body.code_challenge, codeChallengeMethod: body.code_challenge_method,
      principal, action: body.action,
    });
    return { url: started.location };
  },
});
