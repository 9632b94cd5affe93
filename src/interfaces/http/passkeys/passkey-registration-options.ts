import { definePasskeysOperation } from './define-operation.js';
import { ceremonyOptionsSchema } from './passkey-resource.js';
import { holderProofBody, holderProofOf } from '../shared/holder-proof.js';

export const passkeyRegistrationOptions = definePasskeysOperation({
  method: 'POST',
  path: '/auth/passkeys/registration-options',
  operationId: 'passkeyRegistrationOptions',
  summary: 'Options for navigator.credentials.create: register a passkey (a verified address, the password, and a step-up when a second factor is enrolled)',
  tag: 'passkeys',
  auth: 'bearer',
  hashes: true,
  body: holderProofBody('The account\'s password, checked like a password change: counted on this session'),
  success: {
    status: 200,
    message: 'Passkey registration options',
    description: 'PublicKeyCredentialCreationOptionsJSON: a discoverable credential, user verification required; its challenge serves one registration',
    data: ceremonyOptionsSchema('Pass to PublicKeyCredential.parseCreationOptionsFromJSON, then navigator.credentials.create({ publicKey })'),
  },
  errors: ['EMAIL_NOT_VERIFIED', 'STEP_UP_REQUIRED', 'PASSKEY_REJECTED', 'STORE_UNAVAILABLE'],
  run: ({ body, principal, meta }, { passkeyRegistrationOptions }) =>
    passkeyRegistrationOptions.execute({ principal, ...holderProofOf(body), metadata: meta }),
});
