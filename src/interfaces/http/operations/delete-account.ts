import { object } from 'yup';
import { presentedPassword } from '../shared/field-docs.js';
import { defineOperation } from '../shared/operation.js';
import { optionalText } from '../shared/request-body.js';

export const deleteAccount = defineOperation({
  method: 'DELETE',
  path: '/auth/me',
  operationId: 'deleteAccount',
  summary: 'Delete the signed-in account: every session ends, everything that names it is erased, the address is free again',
  description:
    'Asks for the current password (an account without one: a sign-in within MFA_STEP_UP_SECONDS) and the step-up of an account with ' +
    'a second factor. The log keeps one pseudonymous AccountDeleted. See docs/account.md for what erasure guarantees.',
  tag: 'account',
  auth: 'bearer',
  allowsUnverified: true,
  hashes: true,
  body: {
    schema: object({ currentpassword: optionalText() }),
    optional: true,
    docs: { currentpassword: presentedPassword("The account's password, counted like a password change; an account without one leaves it out") },
  },
  success: { status: 204, description: 'Deleted: its tokens are refused from now on' },
  errors: ['STEP_UP_REQUIRED', 'RECENT_SIGN_IN_REQUIRED', 'STORE_UNAVAILABLE'],
  run: ({ body, principal, meta }, { deleteAccount }) => deleteAccount.execute({ principal, currentPassword: body.currentpassword, metadata: meta }),
});
