import { object } from 'yup';
import { SECOND_FACTOR_METHODS } from '../../../application/registry.js';
import { sessionTokens } from '../shared/auth-result.js';
import { emailField, presentedPassword } from '../shared/field-docs.js';
import { sessionTokensData } from '../shared/openapi-schemas.js';
import { alternative, defineOperation } from '../shared/operation.js';
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
  alternative: {
    status: 202,
    message: 'Second factor required',
    description:
      'The password was right and the account has a second factor: no tokens yet. Answer the challenge at POST /auth/sign-in/mfa ' +
      'with `mfatoken` and a code from one of `methods` within `expiresin` seconds (5 wrong codes end it)',
    name: 'SecondFactorRequired',
    data: {
      type: 'object',
      required: ['mfatoken', 'methods', 'expiresin'],
      additionalProperties: false,
      properties: {
        mfatoken: { type: 'string', description: 'The challenge, single-use; stored only as a keyed MAC' },
        methods: {
          type: 'array',
          items: { type: 'string', enum: [...SECOND_FACTOR_METHODS] },
          description: 'What may answer it: `totp` and `recovery_code` always, `webauthn` too when the account has a passkey',
        },
        expiresin: { type: 'integer', description: 'Seconds it may be answered in (MFA_CHALLENGE_SECONDS)' },
      },
    },
  },
  errors: ['INVALID_CREDENTIALS', 'TOO_MANY_ATTEMPTS', 'EMAIL_NOT_VERIFIED', 'STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { signIn }) => {
    const outcome = await signIn.execute({ ...body, metadata: meta });
    return 'mfaToken' in outcome
      ? alternative({ mfatoken: outcome.mfaToken, methods: outcome.methods, expiresin: outcome.expiresIn })
      : sessionTokens(outcome);
  },
});
