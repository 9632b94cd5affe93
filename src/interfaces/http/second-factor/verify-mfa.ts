import { object } from 'yup';
import { sessionTokens } from '../shared/auth-result.js';
import { sessionTokensData } from '../shared/openapi-schemas.js';
import { defineSecondFactorOperation } from './define-operation.js';
import { webAuthnResponseDocs } from '../shared/webauthn-docs.js';
import { optionalText } from '../shared/request-body.js';

export const verifyMfa = defineSecondFactorOperation({
  method: 'POST',
  path: '/auth/mfa/verify',
  operationId: 'verifyMfa',
  summary: 'Step-up: prove the second factor again; the session is raised and fresh tokens answer',
  description:
    "The answered access token carries amr [\"pwd\",\"otp\"] and auth_time now, so for MFA_STEP_UP_SECONDS it may change the password, remove the factor, make new recovery codes and sign out everywhere. Tokens issued before keep what they said. Send `code` or `recoverycode`; 5 wrong ones per session within that window, then 429.",
  tag: 'mfa',
  auth: 'bearer',
  hashes: false,
  body: {
    schema: object({ code: optionalText(), recoverycode: optionalText(), response: object() }),
    oneOf: [['code'], ['recoverycode'], ['response']],
    docs: {
      code: { pattern: '^\\d{6}$', description: 'The 6-digit code the app shows now; each is accepted once' },
      recoverycode: { minLength: 1, maxLength: 64, description: 'One of the recovery codes, each usable once' },
      response: { ...webAuthnResponseDocs, description: 'Or a passkey of the account: navigator.credentials.get answered to POST /auth/passkeys/authentication-options (with this bearer)' },
    },
  },
  success: { status: 200, message: 'Second factor verified', description: 'The session raised: the user and its tokens', data: sessionTokensData },
  errors: ['INVALID_MFA_CODE', 'MFA_NOT_ENROLLED', 'PASSKEY_REJECTED', 'TOO_MANY_ATTEMPTS', 'STORE_UNAVAILABLE'],
  run: async ({ body, principal, meta }, { verifyMfa }) =>
    sessionTokens(await verifyMfa.execute({ principal, code: body.code, recoveryCode: body.recoverycode, response: body.response, metadata: meta })),
});
