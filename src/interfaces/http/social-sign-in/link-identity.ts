import { SOCIAL_SIGN_IN_ERRORS } from './errors.js';
import { object } from 'yup';
import { FLOW_LIFETIME, FLOW_RETURN, flowFields, providerParams } from './oauth-docs.js';
import { defineSocialOperation } from './define-operation.js';
import { text } from '../shared/request-body.js';
import { holderProofDocs, HOLDER_PROOFS, holderProofFields, holderProofOf } from '../shared/holder-proof.js';

export const linkIdentity = defineSocialOperation({
  method: 'POST',
  path: '/auth/oauth/:provider/link',
  operationId: 'linkIdentity',
  summary: "Link a provider's identity to the signed-in account (a verified address, the password or a recent sign-in, and a step-up when a second factor is enrolled)",
  description: `${FLOW_LIFETIME}. The identity that comes back is linked to this account whatever address it shows. ${FLOW_RETURN}.`,
  tag: 'social',
  auth: 'bearer',
  hashes: true,
  params: providerParams,
  body: {
    schema: object({ redirect_to: text(), code_challenge: text(), code_challenge_method: text(), ...holderProofFields }),
    oneOf: HOLDER_PROOFS,
    docs: { ...flowFields, ...holderProofDocs("The account's password, counted like a password change; an account without one sends a proof made for this request instead (`code`, `passkey`, or `oauthcode` with `code_verifier`)") },
  },
  success: {
    status: 200,
    message: 'Identity provider authorization URL',
    description: 'Send the browser to `url`; the flow returns to redirect_to as a sign-in does',
    data: { type: 'object', required: ['url'], additionalProperties: false, properties: { url: { type: 'string', format: 'uri' } } },
  },
  errors: ['EMAIL_NOT_VERIFIED', 'STEP_UP_REQUIRED', 'RECENT_SIGN_IN_REQUIRED', 'STORE_UNAVAILABLE'],
  ownErrors: { PROVIDER_NOT_FOUND: SOCIAL_SIGN_IN_ERRORS.PROVIDER_NOT_FOUND },
  run: async ({ params, body, principal, meta }, { linkIdentity }) => {
    const started = await linkIdentity.execute({
      provider: params['provider'] ?? '', redirectTo: body.redirect_to, codeChallenge: body.code_challenge, codeChallengeMethod: body.code_challenge_method,
      principal, ...holderProofOf(body), metadata: meta,
    });
    return { url: started.location };
  },
});
