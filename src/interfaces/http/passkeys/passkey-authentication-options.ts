import { object } from 'yup';
import { definePasskeysOperation } from './define-operation.js';
import { ceremonyOptionsSchema } from './passkey-resource.js';

export const passkeyAuthenticationOptions = definePasskeysOperation({
  method: 'POST',
  path: '/auth/passkeys/authentication-options',
  operationId: 'passkeyAuthenticationOptions',
  summary: 'Options for navigator.credentials.get: sign in with a passkey, answer a second-factor challenge, or step up',
  description:
    'No body needed. Without a bearer token: for a sign-in with no e-mail typed (POST /auth/sign-in/passkey) or the second factor of a ' +
    "password sign-in (POST /auth/sign-in/mfa); the browser offers the site's passkeys. With one: for a step-up (POST /auth/mfa/verify), the caller's passkeys.",
  tag: 'passkeys',
  auth: 'optional-bearer',
  hashes: false,
  body: { schema: object({}), optional: true, description: 'None needed' },
  success: {
    status: 200,
    message: 'Passkey sign-in options',
    description: 'PublicKeyCredentialRequestOptionsJSON: user verification required; its challenge serves one answer',
    data: ceremonyOptionsSchema('Pass to PublicKeyCredential.parseRequestOptionsFromJSON, then navigator.credentials.get({ publicKey })'),
  },
  errors: ['STORE_UNAVAILABLE'],
  run: ({ principal }, { passkeyAuthenticationOptions }) => passkeyAuthenticationOptions.execute({ principal }),
});
