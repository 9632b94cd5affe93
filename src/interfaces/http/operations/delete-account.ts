import { object } from 'yup';
import { defineOperation } from '../shared/operation.js';
import { holderProofDocs, HOLDER_PROOFS, holderProofFields, holderProofOf } from '../shared/holder-proof.js';

export const deleteAccount = defineOperation({
  method: 'DELETE',
  path: '/auth/me',
  operationId: 'deleteAccount',
  summary: 'Delete the signed-in account: every session ends, everything that names it is erased, the address is free again',
  description:
    'Asks for the current password (an account without one: a code of its authenticator app or a passkey answer) and the step-up of an account with ' +
    'a second factor. The log keeps one pseudonymous AccountDeleted. See docs/account.md for what erasure guarantees.',
  tag: 'account',
  auth: 'bearer',
  allowsUnverified: true,
  hashes: true,
  body: {
    schema: object(holderProofFields),
    oneOf: HOLDER_PROOFS,
    optional: true,
    docs: holderProofDocs("The account's password, counted like a password change; an account without one sends a proof made for this request instead (`code`, `passkey`, or `oauthcode` with `code_verifier`)"),
  },
  success: { status: 204, description: 'Deleted: its tokens are refused from now on' },
  errors: ['STEP_UP_REQUIRED', 'RECENT_SIGN_IN_REQUIRED', 'STORE_UNAVAILABLE'],
  run: ({ body, principal, meta }, { deleteAccount }) => deleteAccount.execute({ principal, ...holderProofOf(body), metadata: meta }),
});
