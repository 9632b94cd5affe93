import { object } from 'yup';
import { mailedToken } from '../shared/field-docs.js';
import { userData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { text } from '../shared/request-body.js';

export const verifyEmail = defineOperation({
  method: 'POST',
  path: '/auth/verify-email',
  operationId: 'verifyEmail',
  summary: 'Prove the address with the token of the verification mail',
  tag: 'mail',
  auth: 'none',
  hashes: false,
  body: { schema: object({ token: text() }), docs: { token: mailedToken } },
  success: { status: 200, message: 'Email verified successfully', description: 'Verified: emailverified is true', data: userData },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { verifyEmail }) => ({ user: await verifyEmail.execute({ token: body.token, metadata: meta }) }),
});
