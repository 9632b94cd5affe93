import { object } from 'yup';
import { sessionTokens } from '../shared/auth-result.js';
import { sessionTokensData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { text } from '../shared/request-body.js';

export const refreshSession = defineOperation({
  method: 'POST',
  path: '/auth/refresh',
  operationId: 'refreshSession',
  summary: 'Continue a session: rotate the refresh token, get a new access token',
  tag: 'sessions',
  auth: 'none',
  hashes: false,
  body: {
    schema: object({ refreshtoken: text() }),
    docs: { refreshtoken: { minLength: 1, description: 'The refresh token of the latest sign-in or refresh' } },
  },
  success: {
    status: 200,
    message: 'Token refreshed successfully',
    description: 'New tokens; the refresh token presented is now the previous one',
    data: sessionTokensData,
  },
  errors: ['INVALID_REFRESH_TOKEN', 'EMAIL_NOT_VERIFIED', 'STORE_UNAVAILABLE'],
  run: async ({ body, meta }, { refreshSession }) => sessionTokens(await refreshSession.execute({ refreshToken: body.refreshtoken, metadata: meta })),
});
