import { object } from 'yup';
import { sessionTokens } from '../shared/auth-result.js';
import { emailField, presentedPassword } from '../shared/field-docs.js';
import { sessionTokensData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { text } from '../shared/request-body.js';
import { SIGN_UP_EXAMPLE } from './sign-up.js';

export const signIn = defineOperation({
  method: 'POST',
  path: '/auth/sign-in',
  operationId: 'signIn',
  summary: 'Sign a user in by e-mail and password',
  tag: 'auth',
  auth: 'none',
  hashes: true,
  observedAs: 'sign_in',
  body: {
    schema: object({ email: text(), password: text() }),
    docs: { email: emailField, password: presentedPassword('Never trimmed, NFKC-normalised') },
    examples: {
      registeredUser: { summary: 'Right credentials: 201', value: { email: SIGN_UP_EXAMPLE.email, password: SIGN_UP_EXAMPLE.password } },
      wrongPassword: { summary: 'Wrong password or unknown e-mail: 401', value: { email: SIGN_UP_EXAMPLE.email, password: 'not the password' } },
    },
  },
  success: {
    status: 201,
    message: 'User created successfully',
    description: 'Signed in: the user, an ES256 access token and the refresh token of the new session',
    data: sessionTokensData,
  },
  errors: ['INVALID_CREDENTIALS', 'TOO_MANY_ATTEMPTS', 'EMAIL_NOT_VERIFIED', 'STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { signIn }) => sessionTokens(await signIn.execute({ ...body, metadata: meta })),
});
