import { object, string } from 'yup';
import { SIGN_OUT_SCOPES } from '../../../application/registry.js';
import { defineOperation } from '../shared/operation.js';

export const signOut = defineOperation({
  method: 'POST',
  path: '/auth/sign-out',
  operationId: 'signOut',
  summary: 'Sign out: this session (local), every other one (others), or all (global)',
  tag: 'sessions',
  auth: 'bearer',
  hashes: false,
  body: {
    schema: object({ scope: string().oneOf(SIGN_OUT_SCOPES) }),
    // No `default` keyword: openapi-typescript 7 makes a property with a default required (its defaultNonNullable),
    // and `{}` is accepted; the description says what an absent scope means.
    docs: { scope: { type: 'string', enum: [...SIGN_OUT_SCOPES], description: 'Which sessions end: `local` (this one; when absent), `others` or `global`' } },
    optional: true,
    description: 'Optional: without a body (and then without Content-Type) the scope is local',
  },
  success: { status: 204, description: 'Signed out: the sessions and their tokens are refused from now on' },
  errors: ['STEP_UP_REQUIRED', 'STORE_UNAVAILABLE'],
  run: ({ body, principal, meta }, { signOut }) => signOut.execute({ principal, scope: body.scope, metadata: meta }),
});
