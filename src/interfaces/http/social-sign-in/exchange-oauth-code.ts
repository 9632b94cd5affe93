import { object } from 'yup';
import { SECOND_FACTOR_REQUIRED, signedInOrChallenged } from '../shared/auth-result.js';
import { sessionTokensData } from '../shared/openapi-schemas.js';
import { defineSocialOperation } from './define-operation.js';
import { text } from '../shared/request-body.js';

export const exchangeOauthCode = defineSocialOperation({
  method: 'POST',
  path: '/auth/oauth/token',
  operationId: 'exchangeOauthCode',
  summary: "Exchange a social sign-in's one-time code and the app's PKCE verifier for the sign-in",
  tag: 'social',
  auth: 'none',
  hashes: false,
  observedAs: 'sign_in_oauth',
  body: {
    schema: object({ code: text(), code_verifier: text() }),
    docs: {
      code: { description: 'The `code` the flow returned to redirect_to: spent by the first attempt, right verifier or not' },
      code_verifier: { minLength: 43, maxLength: 128, description: 'The verifier whose S256 was the code_challenge the flow started with' },
    },
  },
  success: {
    status: 201,
    message: 'User created successfully',
    description: 'Signed in: the user, an access token with amr ["oauth"] (never "pwd") and the refresh token of the new session',
    data: sessionTokensData,
  },
  alternative: SECOND_FACTOR_REQUIRED,
  errors: ['EMAIL_NOT_VERIFIED', 'STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { redeemOauthCode }) => signedInOrChallenged(await redeemOauthCode.execute({ code: body.code, codeVerifier: body.code_verifier, metadata: meta })),
});
