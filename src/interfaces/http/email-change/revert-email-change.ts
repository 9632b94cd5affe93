import { object } from 'yup';
import { EMAIL_CHANGE_REVERT_SECONDS } from '../../../domain/email-change/email-change.js';
import { mailedToken } from '../shared/field-docs.js';
import { defineEmailChangeOperation } from './define-operation.js';
import { text } from '../shared/request-body.js';

export const revertEmailChange = defineEmailChangeOperation({
  method: 'POST',
  path: '/auth/email/revert',
  operationId: 'revertEmailChange',
  summary: 'Take the account back to its previous address with the token of the notice sent there after a change, and sign out everywhere',
  description:
    `Within ${EMAIL_CHANGE_REVERT_SECONDS / 86_400} days of the change. The account returns to the previous address (verified), every session ends, a pending change ends, and a password reset link is mailed to the restored address. A link whose address moved again, or whose previous address another account took meanwhile, is refused like a spent one.`,
  tag: 'account',
  auth: 'none',
  hashes: false,
  rateLimit: 'reset',
  body: { schema: object({ token: text() }), docs: { token: mailedToken } },
  success: { status: 204, description: 'Reverted: the account is on its previous address, and every session of the account has ended' },
  errors: ['STORE_UNAVAILABLE'],
  run: ({ body, meta }, { revertEmailChange }) => revertEmailChange.execute({ token: body.token, metadata: meta }),
});
