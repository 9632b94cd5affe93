import { object } from 'yup';
import type { JsonSchema } from './yup-json-schema.js';
import { presentedPassword } from './field-docs.js';
import { webAuthnResponseDocs } from './webauthn-docs.js';
import { optionalText } from './request-body.js';

/**
 * The body fields that prove the holder of a session now (proveHolder): the password, or, for an account without
 * one, a proof made for this request: a code of its authenticator app, a passkey's answer, or a provider
 * re-authentication's code with the app's verifier. One declaration for every
 * operation that adds a way in, moves the address or deletes the account.
 */
export const holderProofFields = {
  currentpassword: optionalText(),
  code: optionalText(),
  passkey: object().optional().default(undefined),
  oauthcode: optionalText(),
  code_verifier: optionalText(),
};

/**
 * The proofs a body may carry, one of them: the password, a code, a passkey's answer, or a re-authentication's code
 * with its verifier (the body's `oneOf`, so that a generated client asks for one; `{}` is refused on `currentpassword`).
 */
export const HOLDER_PROOFS = [['currentpassword'], ['code'], ['passkey'], ['oauthcode', 'code_verifier']] as const;

/** The OpenAPI descriptions of holderProofFields; `password` describes `currentpassword` for this operation. */
export const holderProofDocs = (password: string): Record<keyof typeof holderProofFields, JsonSchema> => ({
  currentpassword: presentedPassword(password),
  code: { pattern: '^\\d{6}$', description: 'An account without a password: a code its authenticator app shows now (each accepted once)' },
  passkey: { ...webAuthnResponseDocs, description: 'An account without a password: a passkey\'s answer (navigator.credentials.get) to POST /auth/passkeys/authentication-options asked with this bearer' },
  oauthcode: { description: 'An account without a password: the `code` a re-authentication (POST /auth/oauth/{provider}/reauthenticate) for this action returned to redirect_to; one use, 60 s' },
  code_verifier: { minLength: 43, maxLength: 128, description: "With `oauthcode`: the verifier whose S256 was that re-authentication's code_challenge" },
});

/** The body of an operation that asks only a proof of the holder: its fields, the choice of one, their docs. */
export const holderProofBody = (password: string) => ({ schema: object(holderProofFields), oneOf: HOLDER_PROOFS, docs: holderProofDocs(password) });

/** What the use case reads of those fields. */
export const holderProofOf = (body: { readonly [K in keyof typeof holderProofFields]: unknown }) => ({
  currentPassword: body.currentpassword,
  code: body.code,
  passkey: body.passkey,
  oauthCode: body.oauthcode,
  codeVerifier: body.code_verifier,
});
