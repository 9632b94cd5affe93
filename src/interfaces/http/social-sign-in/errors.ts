import type { SocialSignInErrorCode } from '../../../application/social-sign-in/errors.js';
import type { ErrorRow } from '../shared/error-table.js';

/** How the social sign-in's own codes are answered (each operation declares those it can end in: `ownErrors`). */
export const SOCIAL_SIGN_IN_ERRORS: { readonly [C in SocialSignInErrorCode]: ErrorRow } = {
  PROVIDER_NOT_FOUND: {
    status: 404, message: 'Identity provider not found', issues: [], outcome: 'error',
    description: 'No identity provider of this name is configured (OAUTH_PROVIDERS)',
  },
  IDENTITY_NOT_FOUND: {
    status: 404, message: 'Identity not found', issues: [], outcome: 'error',
    description: "No linked identity of the caller has this id (another account's answers the same)",
  },
};
