import { object } from 'yup';
import { newPassword, presentedPassword } from '../shared/field-docs.js';
import { userData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { text } from '../shared/request-body.js';

export const changePassword = defineOperation({
  method: 'POST',
  path: '/auth/password',
  operationId: 'changePassword',
  summary: 'Change the password; every other session ends, this one stays',
  tag: 'sessions',
  auth: 'bearer',
  hashes: true,
  body: {
    schema: object({ currentpassword: text(), newpassword: text() }),
    docs: { currentpassword: presentedPassword(), newpassword: newPassword('The sign-up password rules apply') },
  },
  success: { status: 200, message: 'Password changed successfully', description: 'Password changed', data: userData },
  errors: ['STEP_UP_REQUIRED', 'STORE_UNAVAILABLE'],
  run: async ({ body, principal, meta }, { changePassword }) => ({
    user: await changePassword.execute({ principal, currentPassword: body.currentpassword, newPassword: body.newpassword, metadata: meta }),
  }),
});
