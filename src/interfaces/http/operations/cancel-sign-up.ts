import { object } from 'yup';
import { mailedToken } from '../shared/field-docs.js';
import { emptyData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { text } from '../shared/request-body.js';

export const cancelSignUp = defineOperation({
  method: 'POST',
  path: '/auth/verify-email/cancel',
  operationId: 'cancelSignUp',
  summary: '"Not me": delete the unverified account made with this address, from the token of its verification mail',
  description:
    'The second action of the verification mail, for the owner of an address someone else signed up with. The account, never verified, ' +
    'is deleted: its sessions end, its personal data and events go, and the address is free for a new sign-up; the log keeps only a ' +
    'pseudonymous `SignUpCancelled`. The token is refused (400) once the address is verified.',
  tag: 'mail',
  auth: 'none',
  hashes: false,
  body: { schema: object({ token: text() }), docs: { token: mailedToken } },
  success: { status: 200, message: 'Sign-up cancelled', description: 'The unverified account is deleted; the address is free', data: emptyData },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { cancelSignUp }) => {
    await cancelSignUp.execute({ token: body.token, metadata: meta });
  },
});
