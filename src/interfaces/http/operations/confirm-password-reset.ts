import { object } from 'yup';
import { mailedToken, newPassword } from '../shared/field-docs.js';
import { userData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { text } from '../shared/request-body.js';

export const confirmPasswordReset = defineOperation({
  method: 'POST',
  path: '/auth/password-reset/confirm',
  operationId: 'confirmPasswordReset',
  summary: 'Set a new password with the token of a reset link; every session of the account ends',
  tag: 'mail',
  auth: 'none',
  hashes: true,
  rateLimit: 'reset',
  body: {
    schema: object({ token: text(), newpassword: text() }),
    docs: { token: mailedToken, newpassword: newPassword('The sign-up password rules apply') },
  },
  success: { status: 200, message: 'Password reset successfully', description: 'Password reset; sign in with the new password', data: userData },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { confirmPasswordReset }) => ({
    user: await confirmPasswordReset.execute({ token: body.token, newPassword: body.newpassword, metadata: meta }),
  }),
});
