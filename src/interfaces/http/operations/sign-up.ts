import { object } from 'yup';
import { sessionTokens } from '../shared/auth-result.js';
import { emailField, newPassword, personName } from '../shared/field-docs.js';
import { sessionTokensData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { text } from '../shared/request-body.js';

const SIGN_UP_EXAMPLE = { name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: 'analytical engine 1843' };

export const signUp = defineOperation({
  method: 'POST',
  path: '/auth/sign-up',
  operationId: 'signUp',
  summary: 'Register a user and sign them in',
  tag: 'auth',
  auth: 'none',
  hashes: true,
  observedAs: 'sign_up',
  body: {
    schema: object({ name: text(), lastname: text(), email: text(), password: text() }),
    docs: {
      name: personName('Given name'),
      lastname: personName('Last name'),
      email: emailField,
      password: newPassword('Never trimmed, NFKC-normalised; must not be the e-mail or its local part'),
    },
    examples: { newUser: { summary: 'A new user: 201 (sent a second time: 409)', value: SIGN_UP_EXAMPLE } },
  },
  success: {
    status: 201,
    message: 'User created successfully',
    description: 'Signed in: the user, an ES256 access token and the refresh token of the new session',
    data: sessionTokensData,
  },
  errors: ['EMAIL_ALREADY_REGISTERED', 'STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { signUp }) => sessionTokens(await signUp.execute({ ...body, metadata: meta })),
});
