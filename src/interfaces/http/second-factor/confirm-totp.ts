import { object } from 'yup';
import { defineSecondFactorOperation } from './define-operation.js';
import { text } from '../shared/request-body.js';

export const confirmTotp = defineSecondFactorOperation({
  method: 'POST',
  path: '/auth/mfa/totp/confirm',
  operationId: 'confirmTotp',
  summary: 'Confirm the authenticator app with one of its codes: two-step sign-in is on, with ten recovery codes shown this once',
  tag: 'mfa',
  auth: 'bearer',
  hashes: false,
  body: {
    schema: object({ code: text() }),
    docs: { code: { pattern: '^\\d{6}$', description: 'The 6-digit code the app shows now (one step of drift either way)' } },
  },
  success: {
    status: 200,
    message: 'Second factor enrolled',
    description: 'Enrolled: sign-in now asks for a code. The recovery codes are shown this once and stored only as keyed MACs',
    data: {
      type: 'object',
      required: ['recoverycodes'],
      additionalProperties: false,
      properties: {
        recoverycodes: {
          type: 'array',
          minItems: 10,
          maxItems: 10,
          items: { type: 'string', pattern: '^[a-z2-7]{5}-[a-z2-7]{5}$' },
          description: 'Each signs in once in place of a code; keep them offline',
        },
      },
    },
  },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ principal, body, meta }, { confirmTotp }) => ({
    recoverycodes: (await confirmTotp.execute({ principal, code: body.code, metadata: meta })).recoveryCodes,
  }),
});
