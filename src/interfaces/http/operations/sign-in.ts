import { object } from 'yup';
import { SECOND_FACTOR_REQUIRED, signedInOrChallenged } from '../shared/auth-result.js';
import { emailField, presentedPassword } from '../shared/field-docs.js';
import { sessionTokensData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { text } from '../shared/request-body.js';

const ADA = { email: 'ada@example.com', password: 'analytical engine 1843' };

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
      registeredUser: { summary: 'Right credentials: 201', value: ADA },
      wrongPassword: { summary: 'Wrong password or unknown e-mail: 401', value: { email: ADA.email, password: 'not the password' } },
    },
  },
  success: {
    status: 201,
    message: 'User created successfully',
    description: 'Signed in: the user, an ES256 access token and the refresh token of the new session',
    data: sessionTokensData,
  },
  alternative: SECOND_FACTOR_REQUIRED,
  errors: ['INVALID_CREDENTIALS', 'TOO_MANY_ATTEMPTS', 'EMAIL_NOT_VERIFIED', 'STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { signIn }) => {
    const outcome = await signIn.execute({ ...body, metadata: meta });
    return signedInOrChallenged(outcome);
  },
});
