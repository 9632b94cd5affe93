import { object } from 'yup';
import { emptyData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';

export const resendVerification = defineOperation({
  method: 'POST',
  path: '/auth/verify-email/resend',
  operationId: 'resendVerificationEmail',
  summary: 'Ask for another verification mail for the signed-in account',
  tag: 'mail',
  auth: 'bearer',
  allowsUnverified: true,
  hashes: false,
  body: { schema: object({}), optional: true, description: 'None needed: an empty object, or no body at all' },
  success: {
    status: 202,
    message: 'A verification mail is on its way, unless the address is already verified',
    description: 'Recorded; the mail leaves from the outbox',
    data: emptyData,
  },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ principal, meta }, { resendVerification }) => {
    await resendVerification.execute({ userId: principal.userId, metadata: meta });
  },
});
