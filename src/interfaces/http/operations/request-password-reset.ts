import { object } from 'yup';
import { emailField } from '../shared/field-docs.js';
import { emptyData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { text } from '../shared/request-body.js';

export const requestPasswordReset = defineOperation({
  method: 'POST',
  path: '/auth/password-reset',
  operationId: 'requestPasswordReset',
  summary: 'Ask for a password reset link (the same answer whether or not the address has an account)',
  tag: 'mail',
  auth: 'none',
  hashes: false,
  rateLimit: 'reset',
  body: { schema: object({ email: text() }), docs: { email: emailField } },
  success: {
    status: 202,
    message: 'If an account uses this address, a reset link is on its way',
    description: 'Recorded; the mail leaves from the outbox',
    data: emptyData,
  },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { requestPasswordReset }) => {
    await requestPasswordReset.execute({ email: body.email, metadata: meta });
  },
});
