import { object } from 'yup';
import { mailedToken } from '../shared/field-docs.js';
import { defineEmailChangeOperation } from './define-operation.js';
import { text } from '../shared/request-body.js';

export const cancelEmailChange = defineEmailChangeOperation({
  method: 'POST',
  path: '/auth/email/cancel',
  operationId: 'cancelEmailChange',
  summary: '"This was not me": cancel a change of address with the token of the notice sent to the current address, and sign out everywhere',
  tag: 'account',
  auth: 'none',
  hashes: false,
  rateLimit: 'reset',
  body: { schema: object({ token: text() }), docs: { token: mailedToken } },
  success: { status: 204, description: 'Cancelled: the confirmation link is refused from now on, and every session of the account has ended' },
  errors: ['STORE_UNAVAILABLE'],
  run: ({ body, meta }, { cancelEmailChange }) => cancelEmailChange.execute({ token: body.token, metadata: meta }),
});
