import { object } from 'yup';
import { emailField } from '../shared/field-docs.js';
import { emptyData } from '../shared/openapi-schemas.js';
import { defineEmailChangeOperation } from './define-operation.js';
import { text } from '../shared/request-body.js';
import { holderProofDocs, HOLDER_PROOFS, holderProofFields, holderProofOf } from '../shared/holder-proof.js';

export const requestEmailChange = defineEmailChangeOperation({
  method: 'POST',
  path: '/auth/email',
  operationId: 'requestEmailChange',
  summary: 'Move the account to a new address: a confirmation link to it, a notice with a cancel link to the current one',
  description:
    'Asks what every credential change asks: a verified address, the current password (an account without one: a sign-in within ' +
    'MFA_STEP_UP_SECONDS) and the step-up of an account with a second factor. Capped per account like the verification mails: past the ' +
    'cap, the same 202 and no mail. Whether the new address has an account shows nowhere.',
  tag: 'account',
  auth: 'bearer',
  hashes: true,
  rateLimit: 'reset',
  body: {
    schema: object({ newemail: text(), ...holderProofFields }),
    oneOf: HOLDER_PROOFS,
    docs: { newemail: { ...emailField, description: 'The address to move to' }, ...holderProofDocs("The account's password, counted like a password change") },
  },
  success: { status: 202, message: 'A confirmation link is on its way to the new address', description: 'Recorded; both mails leave from the outbox', data: emptyData },
  errors: ['STEP_UP_REQUIRED', 'RECENT_SIGN_IN_REQUIRED', 'STORE_UNAVAILABLE'],
  run: async ({ body, principal, meta }, { requestEmailChange }) => {
    await requestEmailChange.execute({ principal, newEmail: body.newemail, ...holderProofOf(body), metadata: meta });
  },
});
