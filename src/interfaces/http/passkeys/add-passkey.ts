import { object } from 'yup';
import { definePasskeysOperation } from './define-operation.js';
import { passkeyResource, passkeySchema } from './passkey-resource.js';
import { webAuthnResponseDocs } from '../shared/webauthn-docs.js';
import { optionalText } from '../shared/request-body.js';

export const addPasskey = definePasskeysOperation({
  method: 'POST',
  path: '/auth/passkeys',
  operationId: 'addPasskey',
  summary: 'Register the passkey navigator.credentials.create made',
  tag: 'passkeys',
  auth: 'bearer',
  hashes: false,
  body: {
    schema: object({ response: object().required('is required'), name: optionalText() }),
    docs: { response: webAuthnResponseDocs, name: { minLength: 1, maxLength: 64, description: 'What the owner calls it ("Passkey" when absent)' } },
  },
  success: { status: 201, message: 'Passkey added', description: 'Registered: it signs in from now on; a notice mail goes to the address', data: { type: 'object', required: ['passkey'], additionalProperties: false, properties: { passkey: passkeySchema } } },
  errors: ['EMAIL_NOT_VERIFIED', 'STEP_UP_REQUIRED', 'PASSKEY_REJECTED', 'STORE_UNAVAILABLE'],
  run: async ({ principal, body, meta }, { addPasskey }) => ({
    passkey: passkeyResource(await addPasskey.execute({ principal, response: body.response, name: body.name, metadata: meta })),
  }),
});
