import { object } from 'yup';
import { sessionTokens } from '../shared/auth-result.js';
import { sessionTokensData } from '../shared/openapi-schemas.js';
import { defineSecondFactorOperation } from './define-operation.js';
import { webAuthnResponseDocs } from '../shared/webauthn-docs.js';
import { optionalText, text } from '../shared/request-body.js';

export const signInMfa = defineSecondFactorOperation({
  method: 'POST',
  path: '/auth/sign-in/mfa',
  operationId: 'signInMfa',
  summary: 'Answer the second-factor challenge of a sign-in: a code from the authenticator app, or a recovery code',
  description:
    'The `mfatoken` comes from a sign-in answered 202. Send `code` or `recoverycode`, not both. A wrong answer counts against the ' +
    "challenge (the sixth answer after 5 wrong ones finds it ended) and against the account's sign-in throttle.",
  tag: 'auth',
  auth: 'none',
  hashes: false,
  body: {
    schema: object({ mfatoken: text(), code: optionalText(), recoverycode: optionalText(), response: object() }),
    oneOf: [['code'], ['recoverycode'], ['response']],
    docs: {
      mfatoken: { minLength: 1, maxLength: 128, description: 'From the 202 answer of POST /auth/sign-in' },
      code: { pattern: '^\\d{6}$', description: 'The 6-digit code the app shows now; each is accepted once' },
      recoverycode: { minLength: 1, maxLength: 64, description: 'One of the recovery codes, each usable once (case, dashes and spaces ignored)' },
      response: { ...webAuthnResponseDocs, description: 'Or a passkey of the account: navigator.credentials.get answered to POST /auth/passkeys/authentication-options (no bearer)' },
    },
  },
  success: {
    status: 201,
    message: 'User created successfully',
    description: 'Signed in: the user, an access token with amr ["pwd","otp"] and the refresh token of the new session',
    data: sessionTokensData,
  },
  errors: ['INVALID_MFA_TOKEN', 'INVALID_MFA_CODE', 'PASSKEY_REJECTED', 'TOO_MANY_ATTEMPTS', 'STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { signInMfa }) =>
    sessionTokens(await signInMfa.execute({ mfaToken: body.mfatoken, code: body.code, recoveryCode: body.recoverycode, response: body.response, metadata: meta })),
});
