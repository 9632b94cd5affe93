import { object } from 'yup';
import { presentedPassword } from '../shared/field-docs.js';
import { defineSecondFactorOperation } from './define-operation.js';
import { text } from '../shared/request-body.js';

export const removeTotp = defineSecondFactorOperation({
  method: 'DELETE',
  path: '/auth/mfa/totp',
  operationId: 'removeTotp',
  summary: 'Remove the authenticator app and its recovery codes (step-up, the current password and a code)',
  tag: 'mfa',
  auth: 'bearer',
  hashes: true,
  body: {
    schema: object({ currentpassword: text(), code: text() }),
    docs: {
      currentpassword: presentedPassword('Checked like a password change: counted on this session'),
      code: { pattern: '^\\d{6}$', description: 'A code the app shows now, not used yet' },
    },
  },
  success: { status: 204, description: 'Removed: sign-in asks for the password only; a notice mail goes to the address' },
  errors: ['STEP_UP_REQUIRED', 'INVALID_MFA_CODE', 'MFA_NOT_ENROLLED', 'STORE_UNAVAILABLE'],
  run: ({ body, principal, meta }, { removeTotp }) =>
    removeTotp.execute({ principal, currentPassword: body.currentpassword, code: body.code, metadata: meta }),
});
