import { object } from 'yup';
import { HttpError } from '../shared/error-mapper.js';
import { emailField } from '../shared/field-docs.js';
import { emptyData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { optionalText } from '../shared/request-body.js';

export const resendVerification = defineOperation({
  method: 'POST',
  path: '/auth/verify-email/resend',
  operationId: 'resendVerificationEmail',
  summary: 'Ask for another verification mail: for the signed-in account, or for an address, with no token',
  description:
    'With a bearer token: for its account (no body needed). Without one: `{ "email" }`, answered 202 with the same body whether or not ' +
    'the address has an unverified account (capped per address and per client like a reset request), so the owner of an address ' +
    'someone else signed up with can get the link, and the answer tells nobody whether an account exists. Without a token or an address: 401.',
  tag: 'mail',
  auth: 'optional-bearer',
  allowsUnverified: true,
  hashes: false,
  rateLimit: 'reset',
  body: {
    schema: object({ email: optionalText() }),
    optional: true,
    description: 'With a bearer token, none needed (an empty object, or no body at all); without one, the address',
    docs: { email: { ...emailField, description: 'Without a bearer token: the address to send the link to, as typed at sign-up' } },
  },
  success: {
    status: 202,
    message: 'A verification mail is on its way, unless the address is already verified',
    description: 'Recorded; the mail leaves from the outbox',
    data: emptyData,
  },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ principal, body, meta }, { resendVerification }) => {
    if (principal !== null) await resendVerification.execute({ userId: principal.userId, metadata: meta });
    else if (body.email === undefined) throw new HttpError('MISSING_TOKEN');
    else await resendVerification.execute({ email: body.email, metadata: meta });
  },
});
