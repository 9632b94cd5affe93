import type { AuthResult } from '../../../application/registry.js';

/** The documented `data` of a sign-in (user and access token), plus the session's refresh token and the access token's lifetime. */
export const sessionTokens = (result: AuthResult) => ({
  user: result.user,
  accesstoken: result.accessToken,
  refreshtoken: result.refreshToken,
  expiresin: result.expiresIn,
});
