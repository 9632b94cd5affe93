import { object } from 'yup';
import { personName } from '../shared/field-docs.js';
import { userData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { text } from '../shared/request-body.js';

export const changeProfile = defineOperation({
  method: 'PATCH',
  path: '/auth/me',
  operationId: 'changeProfile',
  summary: "Change the signed-in account's name and last name",
  tag: 'account',
  auth: 'bearer',
  hashes: false,
  body: {
    schema: object({ name: text(), lastname: text() }),
    docs: { name: personName('Given name'), lastname: personName('Last name') },
  },
  success: {
    status: 200,
    message: 'User updated successfully',
    description: 'The account as changed (a ProfileChanged event is recorded when something changed)',
    data: userData,
  },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ body, principal, meta }, { changeProfile }) => ({
    user: await changeProfile.execute({ userId: principal.userId, ...body, metadata: meta }),
  }),
});
