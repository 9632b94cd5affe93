import { object } from 'yup';
import { defineSecondFactorOperation } from './define-operation.js';

export const regenerateRecoveryCodes = defineSecondFactorOperation({
  method: 'POST',
  path: '/auth/mfa/recovery-codes',
  operationId: 'regenerateRecoveryCodes',
  summary: 'New recovery codes (step-up): ten, shown this once; every earlier one stops working',
  tag: 'mfa',
  auth: 'bearer',
  hashes: false,
  body: { schema: object({}), optional: true, description: 'None needed' },
  success: {
    status: 200,
    message: 'Recovery codes regenerated',
    description: 'The new recovery codes, shown this once and stored only as keyed MACs',
    data: {
      type: 'object',
      required: ['recoverycodes'],
      additionalProperties: false,
      properties: { recoverycodes: { type: 'array', minItems: 10, maxItems: 10, items: { type: 'string', pattern: '^[a-z2-7]{5}-[a-z2-7]{5}$' } } },
    },
  },
  errors: ['STEP_UP_REQUIRED', 'MFA_NOT_ENROLLED', 'STORE_UNAVAILABLE'],
  run: async ({ principal, meta }, { regenerateRecoveryCodes }) => ({
    recoverycodes: (await regenerateRecoveryCodes.execute({ principal, metadata: meta })).recoveryCodes,
  }),
});
