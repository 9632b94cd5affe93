import { object } from 'yup';
import { mailedToken } from '../shared/field-docs.js';
import { userData } from '../shared/openapi-schemas.js';
import { defineEmailChangeOperation } from './define-operation.js';
import { text } from '../shared/request-body.js';

export const confirmEmailChange = defineEmailChangeOperation({
  method: 'POST',
  path: '/auth/email/confirm',
  operationId: 'confirmEmailChange',
  summary: 'Confirm a change of address with the token of the mail sent to the new address',
  description: 'The account moves at once, verified; every link mailed to the old address stops working. A link whose address another account took meanwhile is refused like a spent one.',
  tag: 'account',
  auth: 'none',
  hashes: false,
  rateLimit: 'reset',
  body: { schema: object({ token: text() }), docs: { token: mailedToken } },
  success: { status: 200, message: 'Email address changed successfully', description: 'The account on its new, verified address', data: userData },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { confirmEmailChange }) => ({ user: await confirmEmailChange.execute({ token: body.token, metadata: meta }) }),
});
