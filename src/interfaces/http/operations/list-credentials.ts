import type { CredentialResource } from '../../../application/registry.js';
import type { JsonSchema } from '../shared/yup-json-schema.js';
import { defineOperation } from '../shared/operation.js';

const date = (description: string): JsonSchema => ({ type: ['string', 'null'], format: 'date-time', description });

/** One way into the account as the API shows it (never a secret). */
const credentialSchema: JsonSchema = {
  type: 'object',
  required: ['kind', 'id', 'name', 'createdat', 'lastusedat', 'signsin', 'lastwayin'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', description: '`password`, `totp` (the authenticator app, with its recovery codes), `passkey`, `identity` (a provider\'s sign-in)' },
    id: { type: 'string', description: 'Its id among its kind (a passkey id from GET /auth/passkeys, an identity id from GET /auth/identities; the kind itself for `password` and `totp`)' },
    name: { type: ['string', 'null'], description: "A passkey's name, an identity's provider; null otherwise" },
    createdat: date('When it was added; null for the password (set with the account or by a reset)'),
    lastusedat: date("A passkey's last sign-in or step-up; null before any, and for the kinds that do not record it"),
    signsin: { type: 'boolean', description: 'A first factor: it signs in on its own (`totp` does not: it is a second factor)' },
    lastwayin: { type: 'boolean', description: 'The only first factor left: removing it is refused (409 LAST_SIGN_IN_METHOD) until another is added' },
  },
};

const credentialResource = (credential: CredentialResource) => ({
  kind: credential.kind,
  id: credential.id,
  name: credential.name,
  createdat: credential.createdAt?.toISOString() ?? null,
  lastusedat: credential.lastUsedAt?.toISOString() ?? null,
  signsin: credential.signsIn,
  lastwayin: credential.lastWayIn,
});

export const listCredentials = defineOperation({
  method: 'GET',
  path: '/auth/me/credentials',
  operationId: 'listCredentials',
  summary: 'Every way into the account, of every kind, in one list: which sign in on their own, and which is the last',
  tag: 'account',
  auth: 'bearer',
  hashes: false,
  success: {
    status: 200,
    message: 'Credentials retrieved successfully',
    description: 'The password, the authenticator app, passkeys and linked identities the account holds, never a secret',
    data: {
      type: 'object',
      required: ['credentials'],
      additionalProperties: false,
      properties: { credentials: { type: 'array', items: credentialSchema } },
      example: {
        credentials: [
          { kind: 'password', id: 'password', name: null, createdat: null, lastusedat: null, signsin: true, lastwayin: false },
          { kind: 'passkey', id: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1OU', name: 'Work laptop', createdat: '2026-11-20T09:12:44.000Z', lastusedat: '2026-12-01T08:03:10.000Z', signsin: true, lastwayin: false },
        ],
      },
    },
  },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ principal }, { listCredentials }) => ({ credentials: (await listCredentials.execute({ userId: principal.userId })).map(credentialResource) }),
});
