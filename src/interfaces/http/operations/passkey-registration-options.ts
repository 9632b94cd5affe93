import { object } from 'yup';
import { defineOperation } from '../shared/operation.js';
import { ceremonyOptionsSchema } from '../shared/passkey-resource.js';

export const passkeyRegistrationOptions = defineOperation({
  method: 'POST',
  path: '/auth/passkeys/registration-options',
  operationId: 'passkeyRegistrationOptions',
  summary: 'Options for navigator.credentials.create: register a passkey (step-up when a second factor is enrolled)',
  tag: 'passkeys',
  auth: 'bearer',
  hashes: false,
  body: { schema: object({}), optional: true, description: 'None needed' },
  success: {
    status: 200,
    message: 'Passkey registration options',
    description: 'PublicKeyCredentialCreationOptionsJSON: a discoverable credential, user verification required; its challenge serves one registration',
    data: ceremonyOptionsSchema('Pass to PublicKeyCredential.parseCreationOptionsFromJSON, then navigator.credentials.create({ publicKey })'),
  },
  errors: ['STEP_UP_REQUIRED', 'PASSKEY_REJECTED', 'STORE_UNAVAILABLE'],
  run: ({ principal }, { passkeyRegistrationOptions }) => passkeyRegistrationOptions.execute({ principal }),
});
