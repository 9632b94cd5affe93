import { USER_REF } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';

export const getCurrentUser = defineOperation({
  method: 'GET',
  path: '/auth/me',
  operationId: 'getCurrentUser',
  summary: 'The account the bearer token belongs to, and whether it has a second factor',
  tag: 'account',
  auth: 'bearer',
  hashes: false,
  success: {
    status: 200,
    message: 'User retrieved successfully',
    description: 'The signed-in user, and its second factor (never a secret or a code)',
    data: {
      type: 'object',
      required: ['user', 'mfa'],
      additionalProperties: false,
      properties: {
        user: { $ref: USER_REF },
        mfa: {
          type: 'object',
          required: ['enrolled', 'recoverycodesleft'],
          additionalProperties: false,
          properties: {
            enrolled: { type: 'boolean', description: 'Whether an authenticator app is confirmed: sign-in then asks for a code' },
            recoverycodesleft: { type: 'integer', minimum: 0, description: 'Unused recovery codes (0 without a factor)' },
          },
        },
      },
    },
  },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ principal }, { getCurrentUser }) => {
    const { user, mfa } = await getCurrentUser.execute({ principal });
    return { user, mfa: { enrolled: mfa.enrolled, recoverycodesleft: mfa.recoveryCodesLeft } };
  },
});
