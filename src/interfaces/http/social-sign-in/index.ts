import { authorizeOauth } from './authorize-oauth.js';
import { exchangeOauthCode } from './exchange-oauth-code.js';
import { linkIdentity } from './link-identity.js';
import { listIdentities } from './list-identities.js';
import { oauthCallback } from './oauth-callback.js';
import { reauthenticate } from './reauthenticate.js';
import { unlinkIdentity } from './unlink-identity.js';

/** Social sign-in's HTTP operations, in the OpenAPI document's order (its manifest gives them to the server). */
export const SOCIAL_SIGN_IN_OPERATIONS = [authorizeOauth, oauthCallback, exchangeOauthCode, linkIdentity, reauthenticate, listIdentities, unlinkIdentity] as const;
