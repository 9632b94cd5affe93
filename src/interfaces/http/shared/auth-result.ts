import { type AuthResult, SECOND_FACTOR_METHODS, type SignInOutcome } from '../../../application/registry.js';
import { type Alternative, type AlternativeAnswer, alternative } from './operation.js';

/** The documented `data` of a sign-in (user and access token), plus the session's refresh token and the access token's lifetime. */
export const sessionTokens = (result: AuthResult) => ({
  user: result.user,
  accesstoken: result.accessToken,
  refreshtoken: result.refreshToken,
  expiresin: result.expiresIn,
});

/** The answer of a sign-in whose first factor was right for an account with a second factor (password, provider). */
export const SECOND_FACTOR_REQUIRED: AlternativeAnswer = {
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
  };

/** The documented answer of a sign-in outcome: the session's tokens, or the second-factor challenge (SECOND_FACTOR_REQUIRED). */
export const signedInOrChallenged = (outcome: SignInOutcome): ReturnType<typeof sessionTokens> | Alternative =>
  'mfaToken' in outcome ? alternative({ mfatoken: outcome.mfaToken, methods: outcome.methods, expiresin: outcome.expiresIn }) : sessionTokens(outcome);
