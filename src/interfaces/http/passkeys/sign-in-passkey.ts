import { object } from 'yup';
import { sessionTokens } from '../shared/auth-result.js';
import { sessionTokensData } from '../shared/openapi-schemas.js';
import { definePasskeysOperation } from './define-operation.js';
import { webAuthnResponseDocs } from '../shared/webauthn-docs.js';

export const signInPasskey = definePasskeysOperation({
  method: 'POST',
  path: '/auth/sign-in/passkey',
  operationId: 'signInPasskey',
  summary: 'Sign in with a passkey, no e-mail typed',
  description: 'The challenge is found from the answer\'s clientDataJSON (it came from POST /auth/passkeys/authentication-options).',
  tag: 'auth',
  auth: 'none',
  hashes: false,
  observedAs: 'sign_in_passkey',
  body: { schema: object({ response: object().required('is required') }), docs: { response: webAuthnResponseDocs } },
  success: {
    status: 201,
    message: 'User created successfully',
    description: 'Signed in: the user, an access token with amr ["webauthn"] and the refresh token of the new session',
    data: sessionTokensData,
  },
  errors: ['PASSKEY_REJECTED', 'EMAIL_NOT_VERIFIED', 'STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { signInPasskey }) => sessionTokens(await signInPasskey.execute({ response: body.response, metadata: meta })),
});
